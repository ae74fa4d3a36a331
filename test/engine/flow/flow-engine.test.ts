import { expect } from 'chai';
import { setup } from 'xstate';
import { askForm, FlowEngine, defineTool } from '../../../server/engine/index.js';
import { releaseMachine } from '../../../machines/examples/release.js';
import { testKeyRing } from '../fixtures/keys.js';
import {
  CANCEL,
  DECLINE,
  Driver,
  accept,
  expectAsked,
  expectComplete,
  expectEngineError,
  messageOf,
  type Asked,
} from '../fixtures/flow.js';
import { passwordTool, surveyTool } from '../fixtures/machines.js';

import { ARGS, clockedEngine, releaseDriver, releaseWithDeploy } from '../fixtures/engines.js';

describe('FlowEngine', () => {
  describe('a fresh call', () => {
    it('answers input_required with the first question, computed from the arguments', async () => {
      const { driver } = releaseDriver();
      const asked = await driver.ask();
      expect(Object.keys(asked.inputRequests)).to.deep.equal(['window']);
      const request = asked.inputRequests.window!;
      expect(request.method).to.equal('elicitation/create');
      expect(request.params).to.include({ mode: 'form' });
      expect(request.params?.requestedSchema).to.deep.equal({
        type: 'object',
        properties: { window: { type: 'string', title: 'Release window', enum: ['now', 'tonight', 'weekend'] } },
        required: ['window'],
      });
      expect(messageOf(request)).to.include('billing').and.include('2.4.0');
    });

    it('issues a sealed b1 requestState', async () => {
      const { driver } = releaseDriver();
      expect((await driver.ask()).requestState).to.match(/^b1\.k1\.[A-Za-z0-9_-]+$/);
    });

    it('applies answers sent ahead to the first questions, saving a round', async () => {
      const { driver } = releaseDriver();
      const next = expectAsked(await driver.run({ inputResponses: { window: accept({ window: 'tonight' }) } }), [
        'confirm',
      ]);
      expect(messageOf(next.inputRequests.confirm)).to.include('tonight');
    });

    it('ignores answers sent ahead for questions the flow does not ask first', async () => {
      const { driver, calls } = releaseDriver();
      const asked = await driver.ask({ inputResponses: { confirm: accept({ confirm: true }), other: 42 } });
      expect(Object.keys(asked.inputRequests)).to.deep.equal(['window']);
      expect(calls).to.have.length(0);
    });

    it('asks again with a reason when an answer sent ahead fails the schema', async () => {
      const { driver } = releaseDriver();
      const plain = await driver.ask();
      const reasked = await driver.ask({ inputResponses: { window: accept({ window: 'never' }) } });
      expect(Object.keys(reasked.inputRequests)).to.deep.equal(['window']);
      expect(messageOf(reasked.inputRequests.window)).to.not.equal(messageOf(plain.inputRequests.window));
    });
  });

  describe('the release flow', () => {
    it('asks for a window, then confirmation, then deploys and completes', async () => {
      const { driver, calls } = releaseDriver();
      const first = await driver.ask();
      const second = expectAsked(await driver.answer(first, { window: accept({ window: 'tonight' }) }), ['confirm']);
      expect(messageOf(second.inputRequests.confirm)).to.include('tonight');
      expect(second.requestState).to.not.equal(first.requestState);
      expect(calls).to.have.length(0);
      const output = expectComplete(await driver.answer(second, { confirm: accept({ confirm: true }) }));
      expect(output).to.deep.equal({
        released: true,
        service: 'billing',
        version: '2.4.0',
        window: 'tonight',
        deploymentId: 'x',
      });
      expect(calls).to.deep.equal([{ service: 'billing', version: '2.4.0', window: 'tonight' }]);
    });

    it('ends in the cancelled output when the first question is declined, deploying nothing', async () => {
      const { driver, calls } = releaseDriver();
      const output = expectComplete(await driver.answer(await driver.ask(), { window: DECLINE }));
      expect(output).to.be.a('string').and.include('cancelled');
      expect(calls).to.have.length(0);
    });

    it('ends in the cancelled output when the first question is cancelled', async () => {
      const { driver, calls } = releaseDriver();
      const output = expectComplete(await driver.answer(await driver.ask(), { window: CANCEL }));
      expect(output).to.be.a('string').and.include('cancelled');
      expect(calls).to.have.length(0);
    });

    for (const [label, response] of [
      ['declined', DECLINE],
      ['cancelled', CANCEL],
      ['answered with confirm: false', accept({ confirm: false })],
    ] as const) {
      it(`ends in the cancelled output when the confirmation is ${label}`, async () => {
        const { driver, calls } = releaseDriver();
        const second = expectAsked(await driver.answer(await driver.ask(), { window: accept({ window: 'now' }) }));
        const output = expectComplete(await driver.answer(second, { confirm: response }));
        expect(output).to.be.a('string').and.include('cancelled');
        expect(calls).to.have.length(0);
      });
    }

    it("ends in the machine's failed output when the deploy rejects", async () => {
      const { engine } = clockedEngine();
      const { tool } = releaseWithDeploy(async () => {
        throw new Error('registry down');
      });
      const driver = new Driver(engine, tool, ARGS);
      const second = expectAsked(await driver.answer(await driver.ask(), { window: accept({ window: 'now' }) }));
      const output = expectComplete(await driver.answer(second, { confirm: accept({ confirm: true }) }));
      expect(output).to.include({ isError: true });
    });
  });

  describe('answers', () => {
    it('ignores answers to keys that were not asked, even malformed ones', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask();
      const next = await driver.answer(first, {
        confirm: accept({ confirm: true }),
        bogus: { action: 'maybe' },
        other: 42,
      });
      const reasked = expectAsked(next, ['window']);
      expect(messageOf(reasked.inputRequests.window)).to.equal(messageOf(first.inputRequests.window));
    });

    it('treats a key named like an Object.prototype member as missing when it was not answered', async () => {
      const machine = setup({}).createMachine({
        id: 'proto',
        initial: 'ask',
        states: {
          ask: askForm({
            key: 'constructor',
            message: 'Anything?',
            schema: { type: 'object', properties: {} },
            onAccept: 'done',
            onDecline: 'done',
          }),
          done: { type: 'final' },
        },
      });
      const tool = defineTool({ name: 'proto', description: 'x', inputSchema: { type: 'object' }, machine });
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing() }), tool, {});
      const first = await driver.ask();
      expectAsked(await driver.answer(first, {}), ['constructor']);
      expect((await driver.answer(first, { constructor: accept({}) })).kind).to.equal('complete');
    });

    it('asks the same question again when its answer is missing', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask();
      const again = expectAsked(await driver.answer(first, {}), ['window']);
      expect(again.inputRequests).to.deep.equal(first.inputRequests);
      expect(again.requestState).to.not.equal(first.requestState);
      expectAsked(await driver.run({ requestState: again.requestState }), ['window']);
    });

    for (const [label, content] of [
      ['a value outside the enum', { window: 'never' }],
      ['a value of the wrong type', { window: 3 }],
      ['a missing required field', {}],
    ] as const) {
      it(`asks again with a reason before the message for ${label}`, async () => {
        const { driver } = releaseDriver();
        const first = await driver.ask();
        const original = messageOf(first.inputRequests.window);
        const reasked = expectAsked(await driver.answer(first, { window: accept(content) }), ['window']);
        const message = messageOf(reasked.inputRequests.window);
        expect(message).to.not.equal(original);
        expect(message.endsWith(original)).to.equal(true);
        expect(message.length).to.be.greaterThan(original.length + 5);
        expect(reasked.inputRequests.window?.params?.requestedSchema).to.deep.equal(
          first.inputRequests.window?.params?.requestedSchema,
        );
        // The reason is for one re-ask only.
        expect(messageOf(expectAsked(await driver.answer(reasked, {})).inputRequests.window)).to.equal(original);
        expectAsked(await driver.answer(reasked, { window: accept({ window: 'now' }) }), ['confirm']);
      });
    }

    it('treats an accept without content as empty content, checked against the schema', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask();
      const reasked = expectAsked(await driver.answer(first, { window: { action: 'accept' } }), ['window']);
      expect(messageOf(reasked.inputRequests.window)).to.not.equal(messageOf(first.inputRequests.window));
    });

    it('asks again with a reason when the machine refuses an accepted answer', async () => {
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing() }), passwordTool, {});
      const first = await driver.ask();
      const reasked = expectAsked(await driver.answer(first, { code: accept({ code: 'guess' }) }), ['code']);
      const message = messageOf(reasked.inputRequests.code);
      expect(message).to.not.equal(messageOf(first.inputRequests.code));
      expect(message.endsWith(messageOf(first.inputRequests.code))).to.equal(true);
      expect(expectComplete(await driver.answer(reasked, { code: accept({ code: 'open-sesame' }) }))).to.equal('open');
    });

    for (const [label, response] of [
      ['an unknown action', { action: 'maybe' }],
      ['a number', 42],
      ['a string', 'accept'],
      ['null', null],
      ['an array', [{ action: 'accept' }]],
      ['an object without action', { content: { window: 'now' } }],
      ['content that is not an object', { action: 'accept', content: 'now' }],
      ['content with a nested object', { action: 'accept', content: { window: { when: 'now' } } }],
      ['content with an array of numbers', { action: 'accept', content: { window: [1, 2] } }],
    ] as const) {
      it(`fails with invalid_responses for ${label} as a form answer`, async () => {
        const { driver } = releaseDriver();
        const first = await driver.ask();
        await expectEngineError(driver.answer(first, { window: response }), 'invalid_responses');
      });
    }

    for (const [label, value] of [
      ['a string', 'accept'],
      ['a number', 1],
      ['an array', [{ window: { action: 'accept' } }]],
      ['null', null],
    ] as const) {
      it(`fails with invalid_responses when inputResponses is ${label}`, async () => {
        const { driver } = releaseDriver();
        const first = await driver.ask();
        await expectEngineError(driver.answer(first, value), 'invalid_responses');
        await expectEngineError(driver.run({ inputResponses: value }), 'invalid_responses');
      });
    }
  });

  describe('persisted snapshots', () => {
    it('continues from a requestState that went through JSON and was presented by a second engine', async () => {
      const keyRing = testKeyRing();
      const { tool } = releaseWithDeploy();
      const a = new Driver(new FlowEngine({ keyRing }), tool, ARGS);
      const b = new Driver(new FlowEngine({ keyRing }), tool, ARGS);
      const first: Asked = await a.ask();
      const second = expectAsked(await b.answer(first, { window: accept({ window: 'weekend' }) }), ['confirm']);
      expect(expectComplete(await a.answer(second, { confirm: accept({ confirm: true }) }))).to.include({
        window: 'weekend',
      });
    });

    it('continues from the same requestState more than once (the engine itself keeps no state)', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask();
      expectAsked(await driver.answer(first, { window: accept({ window: 'now' }) }), ['confirm']);
      expectAsked(await driver.answer(first, { window: accept({ window: 'now' }) }), ['confirm']);
    });

    it('does not show arguments or answers in the requestState', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask({ arguments: { service: 'zebra-service', version: '9.8.7' } });
      const second = expectAsked(
        await driver.answer(
          first,
          { window: accept({ window: 'weekend' }) },
          { arguments: { service: 'zebra-service', version: '9.8.7' } },
        ),
      );
      const body = Buffer.from(second.requestState.split('.')[2]!, 'base64url');
      for (const needle of ['zebra-service', '9.8.7', 'weekend', 'confirm']) {
        expect(second.requestState).to.not.include(needle);
        expect(body.includes(Buffer.from(needle))).to.equal(false);
      }
    });
  });

  it('exposes versionOf, computed once per machine', () => {
    const engine = new FlowEngine({ keyRing: testKeyRing() });
    const version = engine.versionOf(releaseMachine);
    expect(version).to.be.a('string').with.length(12);
    expect(engine.versionOf(releaseMachine)).to.equal(version);
    expect(engine.versionOf(surveyTool().machine)).to.not.equal(version);
  });
});

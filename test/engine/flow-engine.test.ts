import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import {
  DEFAULT_STATE_TTL_SECONDS,
  askForm,
  EngineError,
  FlowEngine,
  defineTool,
  type FlowEngineOptions,
  type Logger,
} from '../../server/engine/index.js';
import { releaseMachine, releaseTool, type DeployInput } from '../../machines/examples/release.js';
import { provisionDatabaseTool } from '../../machines/examples/provision-database.js';
import { createConnectPaymentsTool } from '../../machines/examples/connect-payments.js';
import { createMemoryVault } from '../../machines/examples/secret-vault.js';
import { fixedKey, keyRingOf, testKeyRing } from './fixtures/keys.js';
import {
  CANCEL,
  DECLINE,
  Driver,
  accept,
  expectAsked,
  expectComplete,
  expectEngineError,
  expectFailed,
  messageOf,
  type Asked,
} from './fixtures/flow.js';
import {
  assistantTool,
  fallbackTool,
  progressTool,
  functionContextTool,
  limboTool,
  passwordTool,
  surveyTool,
  throwingTool,
  workTool,
} from './fixtures/machines.js';

const ARGS = { service: 'billing', version: '2.4.0' };
/** A whole second, so expiry boundaries fall on exact milliseconds. */
const T0 = 1_750_000_000_000;

interface Clocked {
  engine: FlowEngine;
  setTime(ms: number): void;
}

function clockedEngine(options: Partial<FlowEngineOptions> = {}): Clocked {
  let now = T0;
  const engine = new FlowEngine({ keyRing: testKeyRing(), clock: () => now, ...options });
  return { engine, setTime: (ms) => (now = ms) };
}

/** The release tool with a deploy that finishes at once and records what it was asked to do. */
function releaseWithDeploy(
  deploy: (input: DeployInput) => Promise<{ deploymentId: string }> = async () => ({ deploymentId: 'x' }),
) {
  const calls: DeployInput[] = [];
  const tool = defineTool({
    ...releaseTool,
    machine: releaseMachine.provide({
      actors: {
        deploy: fromPromise<{ deploymentId: string }, DeployInput>(({ input }) => {
          calls.push(input);
          return deploy(input);
        }),
      },
    }),
  });
  return { tool, calls };
}

function releaseDriver(options: Partial<FlowEngineOptions> = {}) {
  const { engine, setTime } = clockedEngine(options);
  const { tool, calls } = releaseWithDeploy();
  return { driver: new Driver(engine, tool, ARGS), tool, calls, engine, setTime };
}

function recordingLogger(): Logger & { events: string[] } {
  const events: string[] = [];
  const record = (event: string) => void events.push(event);
  return { events, info: record, warn: record, error: record };
}

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

  describe('requestState checks', () => {
    it('accepts a state until just before its expiry and rejects it from the expiry on', async () => {
      const { driver, setTime } = releaseDriver();
      const first = await driver.ask();
      const ttlMs = DEFAULT_STATE_TTL_SECONDS * 1000;
      setTime(T0 + ttlMs - 1);
      expectAsked(await driver.answer(first, { window: accept({ window: 'now' }) }), ['confirm']);
      setTime(T0 + ttlMs);
      await expectEngineError(driver.answer(first, { window: accept({ window: 'now' }) }), 'invalid_state');
    });

    it("honours the engine's stateTtlSeconds", async () => {
      const { driver, setTime } = releaseDriver({ stateTtlSeconds: 60 });
      const first = await driver.ask();
      setTime(T0 + 59_999);
      expectAsked(await driver.answer(first, {}));
      setTime(T0 + 60_000);
      await expectEngineError(driver.answer(first, {}), 'invalid_state');
    });

    it("lets a tool's stateTtlSeconds override the engine default", async () => {
      const { engine, setTime } = clockedEngine();
      const { tool } = releaseWithDeploy();
      const driver = new Driver(engine, defineTool({ ...tool, stateTtlSeconds: 10 }), ARGS);
      const first = await driver.ask();
      setTime(T0 + 9_999);
      expectAsked(await driver.answer(first, {}));
      setTime(T0 + 10_000);
      await expectEngineError(driver.answer(first, {}), 'invalid_state');
    });

    it('rejects a state presented by another principal', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask({ principal: 'alice' });
      await expectEngineError(driver.answer(first, {}, { principal: 'mallory' }), 'invalid_state');
      expectAsked(await driver.answer(first, {}, { principal: 'alice' }));
    });

    it('rejects a state presented to another tool built from the same machine', async () => {
      const { driver, tool } = releaseDriver();
      const twin = defineTool({ ...tool, name: 'release-twin' });
      const first = await driver.ask();
      await expectEngineError(driver.answer(first, {}, {}, twin), 'invalid_state');
    });

    it('rejects a state presented with other arguments', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask();
      for (const args of [
        { service: 'billing', version: '2.4.1' },
        { service: 'billing' },
        { ...ARGS, extra: true },
        { service: 'billing', version: ['2.4.0'] },
      ]) {
        await expectEngineError(driver.answer(first, {}, { arguments: args }), 'invalid_state');
      }
    });

    it('accepts the same arguments with their keys in another order', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask({ arguments: { service: 'billing', version: '2.4.0' } });
      const next = await driver.answer(
        first,
        { window: accept({ window: 'now' }) },
        {
          arguments: { version: '2.4.0', service: 'billing' },
        },
      );
      expectAsked(next, ['confirm']);
    });

    it('rejects a state sealed with another key, garbage and non-strings', async () => {
      const { driver } = releaseDriver();
      const foreign = new Driver(new FlowEngine({ keyRing: keyRingOf(fixedKey('k1', 7)) }), driver.flow, ARGS);
      const forged = await foreign.ask();
      for (const requestState of [forged.requestState, 'garbage', 'b1.k1.AAAA', '', 42, { a: 1 }, ['x'], null]) {
        await expectEngineError(driver.run({ requestState, inputResponses: {} }), 'invalid_state');
      }
    });

    it('rejects a state longer than its maxStateLength', async () => {
      const keyRing = testKeyRing();
      const issuer = new Driver(new FlowEngine({ keyRing }), releaseTool, ARGS);
      const first = await issuer.ask();
      const strict = new Driver(
        new FlowEngine({ keyRing, maxStateLength: first.requestState.length - 1 }),
        releaseTool,
        ARGS,
      );
      await expectEngineError(strict.answer(first, {}), 'invalid_state');
      const roomy = new Driver(
        new FlowEngine({ keyRing, maxStateLength: first.requestState.length + 64 }),
        releaseTool,
        ARGS,
      );
      expectAsked(await roomy.answer(first, {}));
    });

    it('opens a state sealed under a key that has since been rotated out of first place', async () => {
      const old = fixedKey('old', 1);
      const before = new Driver(new FlowEngine({ keyRing: keyRingOf(old) }), releaseTool, ARGS);
      const after = new Driver(new FlowEngine({ keyRing: keyRingOf(fixedKey('new', 2), old) }), releaseTool, ARGS);
      const first = await before.ask();
      const second = expectAsked(await after.answer(first, { window: accept({ window: 'now' }) }), ['confirm']);
      expect(second.requestState.startsWith('b1.new.')).to.equal(true);
    });

    it('gives the same opaque error whatever check failed, and logs the check for operators', async () => {
      const logger = recordingLogger();
      const { driver, setTime } = releaseDriver({ logger });
      const first = await driver.ask();
      const errors: EngineError[] = [
        await expectEngineError(driver.answer(first, {}, { principal: 'mallory' }), 'invalid_state'),
        await expectEngineError(driver.answer(first, {}, { arguments: { ...ARGS, version: '9' } }), 'invalid_state'),
        await expectEngineError(driver.run({ requestState: 'b1.k1.junk' }), 'invalid_state'),
      ];
      setTime(T0 + DEFAULT_STATE_TTL_SECONDS * 1000);
      errors.push(await expectEngineError(driver.answer(first, {}), 'invalid_state'));
      expect(new Set(errors.map((e) => e.message)).size).to.equal(1);
      expect(errors.every((e) => e.data === undefined)).to.equal(true);
      expect(logger.events.filter((e) => e === 'request_state_rejected')).to.have.length(4);
    });
  });

  describe('deploys', () => {
    it('restarts the flow from the first question when the machine gained a state', async () => {
      const engine = new FlowEngine({ keyRing: testKeyRing() });
      const before = new Driver(engine, surveyTool('base'), {});
      const first = await before.ask();
      const second = expectAsked(await before.answer(first, { name: accept({ name: 'Ada' }) }), ['color']);
      const after = new Driver(engine, surveyTool('extra-state'), {});
      const restarted = expectAsked(await after.answer(second, { color: accept({ color: 'red' }) }), ['name']);
      expect(restarted.requestState).to.not.equal(second.requestState);
      expectAsked(await after.answer(first, {}), ['name']);
      // The restarted flow is a normal flow on the new machine.
      expectAsked(await after.answer(restarted, { name: accept({ name: 'Ada' }) }), ['color']);
    });

    it('restarts the flow when a state was renamed', async () => {
      const engine = new FlowEngine({ keyRing: testKeyRing() });
      const before = new Driver(engine, surveyTool('base'), {});
      const second = expectAsked(await before.answer(await before.ask(), { name: accept({ name: 'Ada' }) }), ['color']);
      const after = new Driver(engine, surveyTool('renamed'), {});
      expectAsked(await after.answer(second, { color: accept({ color: 'red' }) }), ['name']);
    });

    it('resumes the flow on an identical machine built again, and on a reworded one', async () => {
      const engine = new FlowEngine({ keyRing: testKeyRing() });
      const before = new Driver(engine, surveyTool('base'), {});
      const second = expectAsked(await before.answer(await before.ask(), { name: accept({ name: 'Ada' }) }), ['color']);
      const rebuilt = new Driver(engine, surveyTool('base'), {});
      expect(expectComplete(await rebuilt.answer(second, { color: accept({ color: 'red' }) }))).to.deep.equal({
        name: 'Ada',
        color: 'red',
      });
      const reworded = new Driver(engine, surveyTool('reworded'), {});
      const reasked = expectAsked(await reworded.answer(second, {}), ['color']);
      expect(messageOf(reasked.inputRequests.color)).to.include('Favourite colour').and.include('Ada');
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

  describe('client capabilities', () => {
    it('fails with missing_capability naming elicitation when the client declared none', async () => {
      const { driver } = releaseDriver();
      const error = await expectEngineError(driver.run({ caps: {} }), 'missing_capability');
      expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { form: {} } } });
      await expectEngineError(driver.run({ caps: { sampling: {}, roots: {} } }), 'missing_capability');
    });

    it('checks capabilities on a resumed round too', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask();
      const error = await expectEngineError(
        driver.answer(first, { window: accept({ window: 'now' }) }, { caps: {} }),
        'missing_capability',
      );
      expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { form: {} } } });
    });

    it('treats elicitation: {} as form support', async () => {
      const { driver } = releaseDriver();
      expectAsked(await driver.run({ caps: { elicitation: {} } }), ['window']);
      expectAsked(await driver.run({ caps: { elicitation: { form: {} } } }), ['window']);
    });

    describe('a URL question (connect-payments)', () => {
      function paymentsDriver() {
        const vault = createMemoryVault();
        const tool = createConnectPaymentsTool({ vault, pageUrl: (id) => `https://pay.example/vault/${id}` });
        return { vault, driver: new Driver(new FlowEngine({ keyRing: testKeyRing() }), tool, { provider: 'stripe' }) };
      }

      for (const caps of [{ elicitation: {} }, { elicitation: { form: {} } }, {}]) {
        it(`fails with missing_capability naming elicitation.url for ${JSON.stringify(caps)}`, async () => {
          const error = await expectEngineError(paymentsDriver().driver.run({ caps }), 'missing_capability');
          expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { url: {} } } });
        });
      }

      it('asks with mode url when the client declared elicitation.url', async () => {
        const asked = await paymentsDriver().driver.ask({ caps: { elicitation: { url: {} } } });
        expect(Object.keys(asked.inputRequests)).to.deep.equal(['link']);
        expect(asked.inputRequests.link?.method).to.equal('elicitation/create');
        expect(asked.inputRequests.link?.params).to.include({ mode: 'url' });
        expect(asked.inputRequests.link?.params?.url).to.match(/^https:\/\/pay\.example\/vault\/[0-9a-f-]{36}$/);
      });

      it('asks again until the page has done its work, then completes', async () => {
        const { vault, driver } = paymentsDriver();
        const first = await driver.ask();
        const url = first.inputRequests.link?.params?.url as string;
        const again = expectAsked(await driver.answer(first, { link: { action: 'accept' } }), ['link']);
        expect(again.inputRequests.link?.params?.url).to.equal(url);
        expect(messageOf(again.inputRequests.link)).to.not.equal(messageOf(first.inputRequests.link));
        await vault.store(url.split('/').at(-1)!, 'sk_test_1234567890');
        const output = expectComplete(await driver.answer(again, { link: { action: 'accept' } }));
        expect(output).to.be.a('string').and.include('7890');
      });

      it('does not put the URL page secret into the token', async () => {
        const { vault, driver } = paymentsDriver();
        const first = await driver.ask();
        await vault.store((first.inputRequests.link?.params?.url as string).split('/').at(-1)!, 'sk_live_SECRET');
        expect(first.requestState).to.not.include('SECRET');
      });
    });
  });

  describe('limits', () => {
    it('fails the flow once it has asked more than maxRounds times', async () => {
      const { driver } = releaseDriver({ maxRounds: 2 });
      const first = await driver.ask();
      const second = expectAsked(await driver.answer(first, {}));
      expectFailed(await driver.answer(second, {}));
    });

    it('fails the round when invoked work outlasts timeBudgetMs, and aborts that work', async () => {
      const signals: AbortSignal[] = [];
      const tool = workTool(({ signal }) => {
        signals.push(signal);
        return new Promise(() => {});
      });
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing(), timeBudgetMs: 20 }), tool, {});
      const message = expectFailed(await driver.run());
      expect(message).to.include('work');
      expect(signals).to.have.length(1);
      expect(signals[0]!.aborted).to.equal(true);
    });

    it("lets a tool's timeBudgetMs override the engine default", async () => {
      const signals: AbortSignal[] = [];
      const tool = workTool(
        ({ signal }) => {
          signals.push(signal);
          return new Promise(() => {});
        },
        { timeBudgetMs: 20 },
      );
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing(), timeBudgetMs: 60_000 }), tool, {});
      expectFailed(await driver.run());
      expect(signals[0]!.aborted).to.equal(true);
    });

    it('completes work that finishes within the budget', async () => {
      const tool = workTool(async () => 'done');
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing(), timeBudgetMs: 5_000 }), tool, {});
      expect(expectComplete(await driver.run())).to.equal('worked');
    });

    it('answers aborted, and aborts the work, when the signal fires during the round', async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const signals: AbortSignal[] = [];
      const tool = workTool(({ signal }) => {
        signals.push(signal);
        started();
        return new Promise(() => {});
      });
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing() }), tool, {});
      const controller = new AbortController();
      const outcome = driver.run({ signal: controller.signal });
      await running;
      controller.abort();
      expect((await outcome).kind).to.equal('aborted');
      expect(signals[0]!.aborted).to.equal(true);
    });

    it('answers aborted without starting any work when the signal has already fired', async () => {
      let starts = 0;
      const tool = workTool(() => {
        starts += 1;
        return new Promise(() => {});
      });
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing() }), tool, {});
      expect((await driver.run({ signal: AbortSignal.abort() })).kind).to.equal('aborted');
      expect(starts).to.equal(0);
      const { driver: release, calls } = releaseDriver();
      const second = expectAsked(await release.answer(await release.ask(), { window: accept({ window: 'now' }) }));
      const outcome = await release.answer(
        second,
        { confirm: accept({ confirm: true }) },
        { signal: AbortSignal.abort() },
      );
      expect(outcome.kind).to.equal('aborted');
      expect(calls).to.have.length(0);
    });

    it('fails the flow when its sealed state would exceed maxStateLength', async () => {
      const { driver } = releaseDriver({ maxStateLength: 120 });
      expect(expectFailed(await driver.run())).to.include('120');
    });
  });

  describe('machines that misbehave', () => {
    it('fails with internal when the machine stops where it neither asks nor finishes', async () => {
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing() }), limboTool, {});
      await expectEngineError(driver.run(), 'internal');
    });

    it('fails the flow, naming the path, when the context holds a function at a pause', async () => {
      const logger = recordingLogger();
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing(), logger }), functionContextTool, {});
      const first = await driver.ask();
      const message = expectFailed(await driver.answer(first, { first: accept({ first: 'x' }) }));
      expect(message).to.include('context.nested.callback');
      expect(logger.events).to.include('context_unserializable');
    });

    it('fails the flow when the machine itself errors', async () => {
      const driver = new Driver(new FlowEngine({ keyRing: testKeyRing() }), throwingTool, {});
      expect(expectFailed(await driver.run())).to.include('boom');
    });
  });

  describe('parallel questions (provision-database)', () => {
    function provisionDriver() {
      return new Driver(new FlowEngine({ keyRing: testKeyRing() }), provisionDatabaseTool, { project: 'atlas' });
    }

    it('asks size and region in one round, in document order', async () => {
      const asked = await provisionDriver().ask();
      expect(Object.keys(asked.inputRequests)).to.deep.equal(['size', 'region']);
      expect(Object.values(asked.inputRequests).map((r) => r.method)).to.deep.equal([
        'elicitation/create',
        'elicitation/create',
      ]);
    });

    it('asks only the unanswered question again when one of the two is answered', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const regionOnly = expectAsked(await driver.answer(first, { size: accept({ size: 'small' }) }), ['region']);
      expect(messageOf(regionOnly.inputRequests.region)).to.equal(messageOf(first.inputRequests.region));
      const confirm = expectAsked(await driver.answer(regionOnly, { region: accept({ region: 'eu-west' }) }), [
        'confirm',
      ]);
      expect(messageOf(confirm.inputRequests.confirm)).to.include('small').and.include('eu-west');
    });

    it('re-asks only the invalid one of two answers', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const next = expectAsked(
        await driver.answer(first, { size: accept({ size: 'huge' }), region: accept({ region: 'us-east' }) }),
        ['size'],
      );
      expect(messageOf(next.inputRequests.size)).to.not.equal(messageOf(first.inputRequests.size));
    });

    it('takes both answers in one round, re-asks the region the check refused, and completes', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const refused = expectAsked(
        await driver.answer(first, { size: accept({ size: 'large' }), region: accept({ region: 'ap-south' }) }),
        ['region'],
      );
      expect(messageOf(refused.inputRequests.region)).to.not.equal(messageOf(first.inputRequests.region));
      const confirm = expectAsked(await driver.answer(refused, { region: accept({ region: 'eu-west' }) }), ['confirm']);
      expect(messageOf(confirm.inputRequests.confirm)).to.include('large').and.include('eu-west');
      expect(expectComplete(await driver.answer(confirm, { confirm: accept({ confirm: true }) }))).to.deep.equal({
        project: 'atlas',
        size: 'large',
        region: 'eu-west',
        databaseUrl: 'postgres://atlas.eu-west.db.internal/large',
      });
    });

    it('ends in the cancelled output when one of the two questions is declined', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const output = expectComplete(await driver.answer(first, { size: accept({ size: 'small' }), region: DECLINE }));
      expect(output).to.be.a('string').and.include('cancelled');
      const output2 = expectComplete(
        await driver.answer(first, { size: CANCEL, region: accept({ region: 'eu-west' }) }),
      );
      expect(output2).to.be.a('string').and.include('cancelled');
    });

    it('names the capability once when both questions need it', async () => {
      const error = await expectEngineError(provisionDriver().run({ caps: {} }), 'missing_capability');
      expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { form: {} } } });
    });
  });

  describe('sampling and roots', () => {
    const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'A short summary.' }, model: 'test-model' };
    const ROOTS = { roots: [{ uri: 'file:///work/a', name: 'a' }, { uri: 'file:///work/b' }] };

    function assistantDriver(extra: Record<string, unknown> = {}) {
      return new Driver(new FlowEngine({ keyRing: testKeyRing() }), assistantTool(extra), { topic: 'tides' });
    }

    it('asks sampling/createMessage with the request computed from context', async () => {
      const asked = await assistantDriver().ask({ caps: { sampling: {} } });
      expect(asked.inputRequests).to.deep.equal({
        summary: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise tides' } }], maxTokens: 64 },
        },
      });
    });

    it('fails with missing_capability naming sampling when the client has none', async () => {
      const error = await expectEngineError(
        assistantDriver().run({ caps: { elicitation: {}, roots: {} } }),
        'missing_capability',
      );
      expect(error.data).to.deep.equal({ requiredCapabilities: { sampling: {} } });
    });

    it('needs sampling.tools when the request offers tools', async () => {
      const driver = assistantDriver({ tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] });
      const error = await expectEngineError(driver.run({ caps: { sampling: {} } }), 'missing_capability');
      expect(error.data).to.deep.equal({ requiredCapabilities: { sampling: { tools: {} } } });
      expectAsked(await driver.run({ caps: { sampling: { tools: {} } } }), ['summary']);
    });

    it('delivers the sampling result, asks roots/list, delivers the roots and completes', async () => {
      const driver = assistantDriver();
      const first = await driver.ask();
      const roots = expectAsked(await driver.answer(first, { summary: SAMPLED }), ['roots']);
      expect(roots.inputRequests.roots).to.deep.equal({ method: 'roots/list', params: {} });
      expect(expectComplete(await driver.answer(roots, { roots: ROOTS }))).to.deep.equal({
        summary: SAMPLED.content,
        model: 'test-model',
        roots: ['file:///work/a', 'file:///work/b'],
      });
    });

    it('fails with missing_capability naming roots when the client has none', async () => {
      const driver = assistantDriver();
      const first = await driver.ask();
      const error = await expectEngineError(
        driver.answer(first, { summary: SAMPLED }, { caps: { sampling: {} } }),
        'missing_capability',
      );
      expect(error.data).to.deep.equal({ requiredCapabilities: { roots: {} } });
    });

    for (const [label, response] of [
      ['without a model', { role: 'assistant', content: { type: 'text', text: 'x' } }],
      ['without content', { role: 'assistant', model: 'm' }],
      ['as an elicitation result', { action: 'accept', content: {} }],
      ['as a string', 'summary'],
    ] as const) {
      it(`fails with invalid_responses for a sampling result ${label}`, async () => {
        const driver = assistantDriver();
        await expectEngineError(driver.answer(await driver.ask(), { summary: response }), 'invalid_responses');
      });
    }

    for (const [label, response] of [
      ['without roots', {}],
      ['with a root without uri', { roots: [{ name: 'a' }] }],
      ['with roots that are not an array', { roots: 'file:///' }],
      ['as a bare array', [{ uri: 'file:///' }]],
    ] as const) {
      it(`fails with invalid_responses for a roots result ${label}`, async () => {
        const driver = assistantDriver();
        const roots = expectAsked(await driver.answer(await driver.ask(), { summary: SAMPLED }));
        await expectEngineError(driver.answer(roots, { roots: response }), 'invalid_responses');
      });
    }
  });

  describe('questions the client cannot take (onUnsupported)', () => {
    const driver = () => new Driver(new FlowEngine({ keyRing: testKeyRing() }), fallbackTool, {});

    it('asks normally when the client declared the capability', async () => {
      expectAsked(await driver().run({ caps: { elicitation: {} } }), ['choice']);
    });

    it('takes the fallback and asks the next question in the same round', async () => {
      const asked = expectAsked(await driver().run({ caps: { roots: {} } }), ['roots']);
      expect(asked.inputRequests.roots).to.deep.equal({ method: 'roots/list', params: {} });
    });

    it('follows fallbacks until the flow finishes', async () => {
      expect(expectComplete(await driver().run({ caps: {} }))).to.equal('defaulted');
    });

    it('still refuses with missing_capability a question that has no fallback', async () => {
      await expectEngineError(releaseDriver().driver.run({ caps: { roots: {} } }), 'missing_capability');
    });
  });

  describe('progress', () => {
    it('forwards only increasing progress reports made during the round', async () => {
      const reports: unknown[] = [];
      const driver = new Driver(
        new FlowEngine({ keyRing: testKeyRing() }),
        progressTool(async () => 1),
        {},
      );
      const outcome = await driver.engine.run({
        flow: driver.flow,
        arguments: {},
        principal: 'alice',
        clientCapabilities: {},
        onProgress: (report) => reports.push(report),
      });
      expect(outcome.kind).to.equal('complete');
      expect(reports).to.deep.equal([
        { progress: 1, total: 3 },
        { progress: 2, message: 'half way' },
        { progress: 3, total: 3 },
      ]);
    });

    it('runs the same machine without a progress listener', async () => {
      const driver = new Driver(
        new FlowEngine({ keyRing: testKeyRing() }),
        progressTool(async () => 1),
        {},
      );
      expect((await driver.run()).kind).to.equal('complete');
    });
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

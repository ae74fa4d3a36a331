import { expect } from 'chai';
import { DEFAULT_STATE_TTL_SECONDS, EngineError, FlowEngine, defineTool } from '../../../server/engine/index.js';
import { releaseTool } from '../../../machines/examples/release.js';
import { fixedKey, keyRingOf, testKeyRing } from '../fixtures/keys.js';
import { Driver, accept, expectAsked, expectComplete, expectEngineError, messageOf } from '../fixtures/flow.js';
import { surveyTool } from '../fixtures/machines.js';

import { ARGS, T0, clockedEngine, recordingLogger, releaseDriver, releaseWithDeploy } from '../fixtures/engines.js';

describe('FlowEngine: presented requestState', () => {
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
});

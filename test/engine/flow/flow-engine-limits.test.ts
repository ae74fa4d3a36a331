import { expect } from 'chai';
import { FlowEngine } from '../../../server/engine/index.js';
import { testKeyRing } from '../fixtures/keys.js';
import { Driver, accept, expectAsked, expectComplete, expectEngineError, expectFailed } from '../fixtures/flow.js';
import { progressTool, functionContextTool, limboTool, throwingTool, workTool } from '../fixtures/machines.js';

import { recordingLogger, releaseDriver } from '../fixtures/engines.js';

describe('FlowEngine: limits and misbehaving machines', () => {
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
});

import { expect } from 'chai';
import {
  accept,
  countEffects,
  decline,
  describePaths,
  done,
  fail,
  planPaths,
  runFlow,
  walkPaths,
  type WalkedPath,
} from '../../server/testing/index.js';
import { releaseTool } from '../../machines/examples/release.js';
import { bookingTool, declineProvisionsTool, flawedTool } from './fixtures.js';

const byTitle = (walked: WalkedPath[]) => Object.fromEntries(walked.map((w) => [w.path.title, w]));

describe('planPaths', () => {
  it('derives each question × accept/decline/cancel and both sides of a yes/no guard from the graph', () => {
    const titles = planPaths(releaseTool).map((path) => path.title);
    expect(titles).to.have.members([
      'window: accept {"window":"now"} → confirm: accept {"confirm":true}',
      'window: accept {"window":"now"} → confirm: accept {"confirm":false}',
      'window: accept {"window":"now"} → confirm: decline',
      'window: accept {"window":"now"} → confirm: cancel',
      'window: decline',
      'window: cancel',
    ]);
  });

  it('predicts the final state and the kind of output of each path', () => {
    const ends = planPaths(releaseTool).map((path) => `${path.endsIn} ${path.output}`);
    expect(new Set(ends)).to.deep.equal(new Set(['"released" result', '"cancelled" result']));
    const failed = planPaths(bookingTool(), { outcomes: { checkAvailability: [fail()] } });
    expect(failed.find((path) => path.endsIn === '"failed"')?.output).to.equal('tool error');
  });

  it('tries the answer variants given for a question, a bare value filling a one-field form', () => {
    const paths = planPaths(bookingTool(), { answers: { date: ['2026-12-07', { date: '2026-12-08' }] } });
    const first = paths.map((path) => (path.answers.date?.[0] as { content?: unknown }).content);
    expect(first).to.deep.include.members([{ date: '2026-12-07' }, { date: '2026-12-08' }]);
  });
});

describe('walkPaths', () => {
  it('passes every path of a sound tool, each where the plan says it ends', async () => {
    const { paths } = await walkPaths(releaseTool);
    expect(paths.map((w) => w.problem)).to.deep.equal(paths.map(() => undefined));
    expect(paths.map((w) => JSON.stringify(w.endedIn))).to.deep.equal(paths.map((w) => w.path.endsIn));
  });

  it('passes a tool error the plan foresees, and leaves out a decline that asks forever', async () => {
    const { paths } = await walkPaths(flawedTool(), { maxRounds: 5 });
    const walked = byTitle(paths);
    expect(walked['ok: accept {"ok":true}']?.problem).to.equal(undefined);
    // `broken` builds its output in a function the plan reads as a tool error: planned, so it passes.
    expect(walked['ok: cancel']?.path.output).to.equal('tool error');
    expect(walked['ok: cancel']?.problem).to.equal(undefined);
    // A decline that asks again forever has no path to a final state within two asks of `ok`.
    expect(walked['ok: decline']).to.equal(undefined);
    expect(walked['ok: decline → ok: accept {"ok":true}']?.problem).to.equal(undefined);
  });

  it('fails a path whose run ends elsewhere than the plan says, naming both ends', async () => {
    // The calendar says the date is taken: the run ends in `full`, the plan (stand-in output) in `booked`.
    const { paths } = await walkPaths(bookingTool({ taken: ['2026-12-07'], whenTaken: 'end' }), {
      answers: { date: ['2026-12-07'] },
    });
    const path = byTitle(paths)['date: accept {"date":"2026-12-07"}']!;
    expect(path.endedIn).to.equal('full');
    expect(path.problem).to.include('"booked" with a result').and.include('"full" with a result');
  });

  it('fails a machine whose decline provisions anyway, on that path only', async () => {
    const provisioned: string[] = [];
    const { paths } = await walkPaths(declineProvisionsTool(provisioned));
    const walked = byTitle(paths);
    expect(walked['confirm: decline']?.problem).to.equal(
      'the effect "provision" started after "confirm" was declined or cancelled',
    );
    expect(walked['confirm: cancel']?.problem).to.equal(undefined);
    expect(walked['confirm: accept {"confirm":true}']?.problem).to.equal(undefined);
    // Counted for real: the accept and the decline each provisioned once.
    expect(provisioned).to.have.length(2);
  });

  it('lets a question allow an effect after it is declined (effectsAfterDecline)', async () => {
    const { paths } = await walkPaths(declineProvisionsTool(), {
      effectsAfterDecline: { confirm: ['provision'] },
    });
    expect(paths.map((w) => w.problem)).to.deep.equal(paths.map(() => undefined));
  });

  it('walks a re-ask guarded on the answer with answer variants', async () => {
    // 2026-12-05 is a Saturday: refused by the guard, the date is asked again.
    const { paths } = await walkPaths(bookingTool(), { answers: { date: ['2026-12-05', '2026-12-07'] } });
    const reask = byTitle(paths)['date: accept {"date":"2026-12-05"} → date: accept {"date":"2026-12-07"}'];
    expect(reask?.problem).to.equal(undefined);
    expect(reask?.run.asked).to.deep.equal(['date', 'date']);
    expect(reask?.endedIn).to.equal('booked');
  });

  it('walks a re-ask after a refused check, and the onError path, with actor outcomes', async () => {
    const outcomes = { checkAvailability: [done({ available: false }), done({ available: true }), fail()] };
    const { paths, unreached } = await walkPaths(bookingTool(), { answers: { date: ['2026-12-07'] }, outcomes });
    const walked = byTitle(paths);
    const refused =
      walked[
        'date: accept {"date":"2026-12-07"} → checkAvailability: done {"available":false} → date: accept {"date":"2026-12-07"} → checkAvailability: done {"available":true}'
      ];
    expect(refused?.problem).to.equal(undefined);
    expect(refused?.run.asked).to.deep.equal(['date', 'date']);
    const failed = walked['date: accept {"date":"2026-12-07"} → checkAvailability: error "failed"'];
    expect(failed?.problem).to.equal(undefined);
    expect(failed?.endedIn).to.equal('failed');
    expect(failed?.run.result?.isError).to.equal(true);
    expect(paths.map((w) => w.problem)).to.deep.equal(paths.map(() => undefined));
    expect(unreached).to.deep.equal(['full']);
  });

  it('reports the final states no walked path reaches', async () => {
    const { unreached } = await walkPaths(bookingTool());
    // `failed` needs a failing check, `full` a machine that ends when the date is taken.
    expect(unreached).to.deep.equal(['full', 'failed']);
  });
});

describe('describePaths', () => {
  /** Runs describePaths with stand-ins for mocha's globals, and each generated test. */
  async function generated(...args: Parameters<typeof describePaths>) {
    const tests: Array<{ title: string; body: () => Promise<void> }> = [];
    const globals = globalThis as unknown as Record<string, unknown>;
    const saved = { describe: globals.describe, it: globals.it };
    const context = { timeout: () => {}, skip: () => {} };
    globals.describe = (_title: string, body: () => void) => body.call(context);
    globals.it = (title: string, body: () => Promise<void>) => tests.push({ title, body: () => body.call(context) });
    try {
      describePaths(...args);
    } finally {
      Object.assign(globals, saved);
    }
    const results: Record<string, string> = {};
    for (const test of tests) {
      results[test.title] = await test.body().then(
        () => 'passed',
        (error: Error) => error.message,
      );
    }
    return results;
  }

  it('fails the path of a machine whose decline provisions anyway', async () => {
    const results = await generated(declineProvisionsTool());
    expect(results['confirm: decline: ends in "provisioned"']).to.include('the effect "provision" started after');
    expect(results['confirm: accept {"confirm":true}: ends in "provisioned"']).to.equal('passed');
    expect(results['reaches every final state']).to.equal('passed');
  });

  it('fails a run that ends elsewhere than planned, and names the final states no path reached', async () => {
    const results = await generated(bookingTool({ taken: ['2026-12-07'], whenTaken: 'end' }), {
      answers: { date: ['2026-12-07'] },
    });
    expect(results['date: accept {"date":"2026-12-07"}: ends in "booked"']).to.include('the run ended in "full"');
    expect(results['reaches every final state']).to.include('"failed"').and.not.include('"full"');
  });
});

describe('countEffects', () => {
  it('counts each effect a run starts, and none for a decline', async () => {
    const tool = declineProvisionsTool();
    const effects = countEffects(tool);
    await runFlow(tool, {}, { confirm: accept({ confirm: true }) }, { actors: effects.actors });
    expect(effects.counts).to.deep.equal({ provision: 1 });
    const none = countEffects(releaseTool);
    await runFlow(releaseTool, undefined, { window: decline() }, { actors: none.actors });
    expect(none.counts).to.deep.equal({ deploy: 0 });
  });
});

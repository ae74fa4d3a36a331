import { expect } from 'chai';
import { fromPromise } from 'xstate';
import { toolSetup } from '../../server/engine/index.js';
import { accept, done, fail, planPaths, walkPath, walkPaths } from '../../server/testing/index.js';
import { releaseTool } from '../../machines/examples/release.js';
import { onboardingTool } from './onboarding-fixture.js';

/**
 * A lookup decides whether a reason is asked: without outcomes the plan can only guess its output
 * (the stand-in reads as "yes"), while the real lookup says no, and the run ends where the plan
 * says without asking what the plan answers.
 */
function reviewTool() {
  const tool = toolSetup({
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    questions: {
      reason: {
        kind: 'form',
        message: 'Why?',
        schema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
      },
    },
    types: {} as { context: Record<string, never> },
    actors: { lookup: fromPromise(async () => ({ needsReview: false })) },
  });
  const machine = tool.createMachine({
    id: 'review',
    initial: 'looking',
    context: {},
    states: {
      looking: {
        invoke: {
          src: 'lookup',
          onDone: [{ guard: ({ event }) => event.output.needsReview, target: 'asking' }, { target: 'done' }],
        },
      },
      asking: tool.ask.reason({ onAccept: 'done', onDecline: 'done' }),
      done: { type: 'final', output: 'Reviewed.' },
    },
  });
  return tool.defineTool({ name: 'review', description: 'Asks a reason when the lookup says so.', machine });
}

describe('planPaths: states that differ only in context', () => {
  // The newcomer's machine (issue 40): the regions' answers in context, read by onDone guards.
  const options = {
    answers: { team: ['none', 'platform'] as const },
    outcomes: { createAccount: [done({ account: 'new-hire' }), fail(new Error('directory down'))] },
    // Declining the laptop (or the address) still creates the account: the design.
    effectsAfterDecline: { laptop: ['createAccount'], address: ['createAccount'] },
  };

  it('plans each answer of a parallel region where its own context leads', () => {
    const ends = Object.fromEntries(planPaths(onboardingTool(), options).map((path) => [path.title, path.endsIn]));
    expect(ends['team: accept {"team":"none"} → laptop: accept {"laptop":false}']).to.equal('"cancelled"');
    expect(
      ends[
        'team: accept {"team":"platform"} → laptop: accept {"laptop":false} → createAccount: done {"account":"new-hire"}'
      ],
    ).to.equal('"onboarded"');
    // The guarded follow-up is asked only where the laptop answer says so.
    const followUps = Object.keys(ends).filter((title) => title.includes('address:'));
    expect(followUps).to.not.be.empty;
    expect(followUps.every((title) => title.includes('{"laptop":true}'))).to.equal(true);
  });

  it('passes every path of the newcomer machine, each ending where its run ends', async () => {
    const { paths, unreached } = await walkPaths(onboardingTool(), options);
    expect(paths.map((w) => w.problem)).to.deep.equal(paths.map(() => undefined));
    expect(paths.map((w) => JSON.stringify(w.endedIn))).to.deep.equal(paths.map((w) => w.path.endsIn));
    expect(unreached).to.deep.equal([]);
  });

  it('asks the questions of a round together, as the server does, in document order', () => {
    const titles = planPaths(onboardingTool(), options).map((path) => path.title);
    // Every path answers team and laptop, team first: one round, never one order and then the other.
    expect(titles.every((title) => title.startsWith('team: ') && title.includes(' → laptop: '))).to.equal(true);
  });
});

describe('walkPath: a plan the run does not follow', () => {
  it('fails a path whose planned question the run never asks, though it ends in the planned state', async () => {
    const { paths } = await walkPaths(reviewTool());
    const asking = paths.find((w) => w.path.title.startsWith('reason: accept'))!;
    expect(asking.path.endsIn).to.equal('"done"');
    expect(asking.endedIn).to.equal('done');
    expect(asking.run.asked).to.deep.equal([]);
    expect(asking.problem).to.include('"reason"').and.include('never asked');
    // It names what the plan could not know, and how to tell it.
    expect(asking.problem).to.include('"lookup"');
    expect(paths.map((w) => w.problem)).to.not.include(undefined);
  });

  it('fails a path that plans an answer more than the run asks', async () => {
    const [path] = planPaths(releaseTool).filter((p) => p.title === 'window: decline');
    const walked = await walkPath(releaseTool, { ...path!, answers: { ...path!.answers, confirm: [accept()] } });
    expect(walked.endedIn).to.equal('cancelled');
    expect(walked.problem).to.include('"confirm"');
  });

  it('fails a path that plans an actor outcome the run never uses', async () => {
    const [path] = planPaths(releaseTool).filter((p) => p.title === 'window: decline');
    const walked = await walkPath(releaseTool, { ...path!, outcomes: { deploy: [done({ deploymentId: 'x' })] } });
    expect(walked.problem).to.include('"deploy"');
  });
});

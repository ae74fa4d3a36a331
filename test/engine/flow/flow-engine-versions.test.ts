/**
 * Deploys that change a machine's structure, with earlier versions kept or migrated: a state the
 * earlier version sealed goes on without asking again, and new calls start on the current version.
 */
import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import {
  FlowEngine,
  askForm,
  defineTool,
  type AnswerEvent,
  type EarlierVersion,
} from '../../../server/engine/index.js';
import { testKeyRing } from '../fixtures/keys.js';
import { ALL_CAPS, Driver, accept, expectAsked, expectComplete } from '../fixtures/flow.js';
import { recordingLogger } from '../fixtures/engines.js';
import { surveyV1Machine, surveyV1Tool, surveyV2Machine, surveyV2Tool, toV2 } from '../fixtures/versioned-machines.js';

const ADA = { name: accept({ name: 'Ada' }) };
const RED = { color: accept({ color: 'red' }) };

/** One engine (one key ring) serving v1, then v2: a state v1 sealed after the name, and a driver on v2. */
async function deployed(v2 = surveyV2Tool()) {
  const logger = recordingLogger();
  const engine = new FlowEngine({ keyRing: testKeyRing(), logger });
  const before = new Driver(engine, surveyV1Tool(), {});
  const sealed = expectAsked(await before.answer(await before.ask(), ADA), ['color']);
  return { sealed, after: new Driver(engine, v2, {}), engine, logger };
}

describe('FlowEngine: earlier versions', () => {
  it('restarts a state of a version the tool neither keeps nor migrates (as before)', async () => {
    const { sealed, after, logger } = await deployed();
    expectAsked(await after.answer(sealed, RED), ['name']);
    expect(logger.events).to.include('request_state_restarted');
  });

  it('finishes a flow of a kept version on its machine: its next question, its result', async () => {
    const { sealed, after, logger } = await deployed(surveyV2Tool([{ machine: surveyV1Machine, label: 'v1' }]));
    // v1's own output: no nickname was ever asked, and nothing was asked again.
    expect(expectComplete(await after.answer(sealed, RED))).to.deep.equal({ name: 'Ada', color: 'red' });
    expect(logger.events).to.include('request_state_kept');
    expect(logger.events).to.not.include('request_state_restarted');
  });

  it('seals the next state of a kept flow for the kept version again, round after round', async () => {
    const { sealed, after } = await deployed(surveyV2Tool([{ machine: surveyV1Machine }]));
    // No answer: v1 asks its colour again, and that state still goes on on v1.
    const again = expectAsked(await after.answer(sealed, {}), ['color']);
    expect(expectComplete(await after.answer(again, RED))).to.deep.equal({ name: 'Ada', color: 'red' });
  });

  it('starts every new call on the current version, with a version kept', async () => {
    const { after } = await deployed(surveyV2Tool([{ machine: surveyV1Machine }]));
    const named = expectAsked(await after.answer(await after.ask(), ADA), ['nickname']);
    expectAsked(await after.answer(named, { nickname: accept({ nickname: 'Ace' }) }), ['color']);
  });

  it('accepts a tool definition of the earlier version as its kept version', async () => {
    const { sealed, after } = await deployed(surveyV2Tool([surveyV1Tool()]));
    expect(expectComplete(await after.answer(sealed, RED))).to.deep.equal({ name: 'Ada', color: 'red' });
  });

  it('migrates a flow onto the current machine at the round boundary: the answer reaches the same question', async () => {
    const { sealed, after, logger } = await deployed(surveyV2Tool([{ version: versionOfV1(), migrate: toV2 }]));
    expect(expectComplete(await after.answer(sealed, RED))).to.deep.equal({
      name: 'Ada',
      nickname: 'Aday',
      color: 'red',
      on: 'v2',
    });
    expect(logger.events).to.include('request_state_migrated');
  });

  it('seals a migrated flow for the current version', async () => {
    const { sealed, after, engine } = await deployed(surveyV2Tool([{ version: versionOfV1(), migrate: toV2 }]));
    const again = expectAsked(await after.answer(sealed, {}), ['color']);
    // Served by a v2 that no longer lists v1, the migrated state is v2's own and goes on.
    const plain = new Driver(engine, surveyV2Tool(), {});
    expect(expectComplete(await plain.answer(again, RED))).to.have.property('on', 'v2');
  });

  describe('a migration that fails', () => {
    const failures = {
      'throws in its context transform': {
        states: { askColor: 'askColor' },
        context: () => {
          throw new Error('no nickname');
        },
      },
      'lands in a state that does not exist': { states: { askColor: 'pickColour' } },
      'lands in a final state': { states: { askColor: 'done' } },
      'answers a context that cannot be sealed': { context: () => ({ callback: () => 1 }) },
      'answers no object': { context: () => null as unknown as Record<string, unknown> },
    };
    for (const [how, migrate] of Object.entries(failures)) {
      it(`${how}: falls back to the kept machine`, async () => {
        const { sealed, after, logger } = await deployed(surveyV2Tool([{ machine: surveyV1Machine, migrate }]));
        expect(expectComplete(await after.answer(sealed, RED))).to.deep.equal({ name: 'Ada', color: 'red' });
        expect(logger.events).to.include.members(['request_state_migration_failed', 'request_state_kept']);
      });

      it(`${how}: restarts when no machine is kept`, async () => {
        const { sealed, after, logger } = await deployed(surveyV2Tool([{ version: versionOfV1(), migrate }]));
        expectAsked(await after.answer(sealed, RED), ['name']);
        expect(logger.events).to.include.members(['request_state_migration_failed', 'request_state_restarted']);
      });
    }
  });

  it('runs a current flow as before when versions are listed', async () => {
    const { after } = await deployed(surveyV2Tool([{ machine: surveyV1Machine }]));
    const first = await after.ask();
    const named = expectAsked(await after.answer(first, ADA), ['nickname']);
    const nicked = expectAsked(await after.answer(named, { nickname: accept({ nickname: 'Ace' }) }), ['color']);
    expect(expectComplete(await after.answer(nicked, RED))).to.include({ nickname: 'Ace', on: 'v2' });
  });
});

/** Asks to go, then works (an invoked promise: where a task takes over); v2 asks why in between. */
function workAfterAsking(why: boolean) {
  const go = askForm({
    key: 'go',
    message: 'Go?',
    schema: { type: 'object', properties: {} },
    onAccept: why ? 'asking' : 'working',
    onDecline: 'done',
  });
  return setup({
    types: {} as { events: AnswerEvent },
    actors: { work: fromPromise(async () => 'worked') },
  }).createMachine({
    id: 'goWork',
    initial: 'going',
    states: {
      going: go,
      ...(why
        ? {
            asking: askForm({
              key: 'why',
              message: 'Why?',
              schema: { type: 'object', properties: {} },
              onAccept: 'working',
              onDecline: 'done',
            }),
          }
        : {}),
      working: { invoke: { src: 'work', onDone: 'done' } },
      done: { type: 'final' },
    },
  });
}

function goWorkTool(why: boolean, versions?: EarlierVersion[]) {
  return defineTool({
    name: 'go-work',
    description: 'Asks, then works as a task.',
    inputSchema: { type: 'object' },
    task: 'optional',
    machine: workAfterAsking(why),
    ...(versions ? { versions } : {}),
  });
}

describe('FlowEngine: a kept flow that hands over to a task', () => {
  it('hands over on the kept machine, so the task is pinned to that version', async () => {
    const engine = new FlowEngine({ keyRing: testKeyRing() });
    const v1 = goWorkTool(false);
    const first = expectAsked(
      await engine.run({ flow: v1, arguments: {}, principal: 'alice', clientCapabilities: ALL_CAPS, handover: true }),
      ['go'],
    );
    const v2 = goWorkTool(true, [{ machine: v1.machine }]);
    const outcome = await engine.run({
      flow: v2,
      arguments: {},
      principal: 'alice',
      clientCapabilities: ALL_CAPS,
      handover: true,
      requestState: first.requestState,
      inputResponses: { go: accept({}) },
    });
    expect(outcome.kind).to.equal('task');
    expect(engine.versionOf((outcome as { machine: typeof v1.machine }).machine)).to.equal(
      engine.versionOf(v1.machine),
    );
  });
});

function versionOfV1(): string {
  return new FlowEngine({ keyRing: testKeyRing() }).versionOf(surveyV1Machine);
}

// The two fixtures differ in structure: otherwise every case above would pass for the wrong reason.
describe('versioned fixtures', () => {
  it('v1 and v2 have different structural versions', () => {
    const engine = new FlowEngine({ keyRing: testKeyRing() });
    expect(engine.versionOf(surveyV1Machine)).to.not.equal(engine.versionOf(surveyV2Machine));
  });
});

import { expect } from 'chai';
import { Actor, assign, fromPromise, raise, setup, spawnChild, type AnyActorRef } from 'xstate';
import { FlowEngine, silentLogger, type XStatePath } from '../../../server/engine/index.js';
import { RoundActors } from '../../../server/engine/round/round-actor.js';
import { leanActorSupport, TESTED_XSTATE, untestedVersion } from '../../../server/engine/round/lean-path-check.js';
import { LeanActor, leanEligible } from '../../../server/engine/round/xstate-internals/index.js';
import superjson from 'superjson';
import { Driver, expectComplete } from '../fixtures/flow.js';
import { richMachine } from '../fixtures/rich-machine.js';
import { recordingLogger } from '../fixtures/engines.js';
import { testKeyRing } from '../fixtures/keys.js';
import { askText, text, toolOf } from '../xstate/rounds.js';

/** A flow whose entry action and answer transition record the actor that runs them. */
function recordingSelf(extra: Record<string, unknown> = {}, actors: Record<string, unknown> = {}) {
  const selves: AnyActorRef[] = [];
  const machine = setup({ actors: actors as never }).createMachine({
    id: 'm',
    initial: 'ask',
    entry: ({ self }) => void selves.push(self),
    states: {
      ask: askText('ask', { target: 'end', actions: ({ self }: { self: AnyActorRef }) => void selves.push(self) }),
      end: { type: 'final' },
      declined: { type: 'final' },
      ...extra,
    },
  });
  return { machine, selves };
}

async function selvesOf(path: XStatePath, flow = recordingSelf()) {
  const driver = new Driver(new FlowEngine({ keyRing: testKeyRing(), xstatePath: path }), toolOf(flow.machine), {});
  expectComplete(await driver.answer(await driver.ask(), { ask: text('x') }));
  return flow.selves;
}

describe('RoundActors: which actor a round runs in', () => {
  it('runs every round of a machine without invoked actors or delays in a LeanActor by default', async () => {
    const selves = await selvesOf('auto');
    expect(selves).to.have.length(2);
    for (const self of selves) expect(self).to.be.instanceOf(LeanActor);
  });

  it("runs every round in XState's own actor on the public path", async () => {
    const selves = await selvesOf('public');
    expect(selves).to.have.length(2);
    for (const self of selves) expect(self).to.be.instanceOf(Actor);
  });

  it('takes the public path for a machine that invokes, has after, spawns or delays in its actions', async () => {
    const work = fromPromise(async () => 1);
    const cases = [
      { extra: { busy: { invoke: { src: 'work' } } }, actors: { work } },
      { extra: { waiting: { after: { 10: 'end' } } }, actors: {} },
      { extra: { spawning: { entry: spawnChild('work') } }, actors: { work } },
      { extra: { raising: { entry: raise({ type: 'LATE' }, { delay: 10 }) } }, actors: {} },
    ];
    for (const { extra, actors } of cases) {
      const flow = recordingSelf(extra, actors);
      expect(leanEligible(flow.machine), Object.keys(extra)[0]).to.equal(false);
      for (const self of await selvesOf('auto', flow)) expect(self).to.be.instanceOf(Actor);
    }
    expect(leanEligible(recordingSelf().machine)).to.equal(true);
  });

  it('restores a sealed state that holds children in XState’s own actor', () => {
    const { machine } = recordingSelf();
    const actors = new RoundActors('auto', silentLogger);
    const withChild = { status: 'active', value: 'ask', context: {}, historyValue: {}, children: { c: {} } };
    const childless = { ...withChild, children: {} };
    expect(actors.create(machine, { snapshot: childless, input: {} }, true)).to.be.instanceOf(LeanActor);
    expect(actors.create(machine, { snapshot: withChild, input: {} }, true)).to.be.instanceOf(Actor);
    expect(actors.create(machine, { input: {} }, false), 'a task step').to.be.instanceOf(Actor);
  });

  it('falls back to the public path, with a warning, when the XState installed fails the check', () => {
    const logger = recordingLogger();
    const actors = new RoundActors('auto', logger, () => ({ ok: false, reason: 'xstate 6.0.0 is outside …' }));
    expect(actors.lean).to.equal(false);
    expect(logger.events).to.deep.equal(['xstate_public_path']);
    expect(actors.create(recordingSelf().machine, { input: {} }, true)).to.be.instanceOf(Actor);
  });
});

describe('lean-path-check', () => {
  it('passes the XState installed here, the version and the probe machine', () => {
    expect(leanActorSupport()).to.deep.equal({ ok: true });
  });

  it('accepts only the versions the lean path was tested with', () => {
    expect(TESTED_XSTATE).to.deep.equal(['5.33.3', '5.34.0']);
    for (const version of ['5.33.3', '5.33.9']) expect(untestedVersion(version), version).to.equal(undefined);
    for (const version of ['5.33.2', '5.34.0', '6.0.0', '4.38.3', '5.33.4-beta.1']) {
      expect(untestedVersion(version), version).to.be.a('string');
    }
  });
});

describe('LeanActor', () => {
  it('persists what machine.getPersistedSnapshot does, key for key and in the same order', () => {
    const answer = (key: string) => ({ type: `answer.${key}.accept`, content: { text: key } });
    let persisted: unknown;
    for (const events of [[], ['first', 'second'], ['left', 'right'], ['second']]) {
      const actor = new LeanActor(richMachine, { snapshot: persisted, input: { day: 1 } }).start();
      for (const key of events) actor.send(answer(key));
      const expected = richMachine.getPersistedSnapshot(actor.getSnapshot() as never);
      expect(superjson.stringify(actor.getPersistedSnapshot())).to.equal(superjson.stringify(expected));
      persisted = superjson.parse(superjson.stringify(expected));
    }
    expect((persisted as { value: unknown }).value).to.deep.equal({ review: { left: 'asking', right: 'asking' } });
  });

  it('keeps a child spawned at run time and stops it with the actor, as XState does', () => {
    const child = setup({}).createMachine({ id: 'child', context: { n: 0 } });
    const machine = setup({ actors: { child } }).createMachine({
      id: 'parent',
      context: { ref: undefined as AnyActorRef | undefined },
      entry: assign({ ref: ({ spawn }) => spawn('child', { id: 'kid' }) }),
    });
    const actor = new LeanActor(machine, { input: {} }).start();
    const kid = actor.getSnapshot().children.kid as AnyActorRef;
    expect(kid.getSnapshot().status).to.equal('active');
    expect(actor.getPersistedSnapshot()).to.deep.equal(machine.getPersistedSnapshot(actor.getSnapshot() as never));
    actor.stop();
    expect(kid.getSnapshot().status).to.equal('stopped');
    expect(actor.getSnapshot().status).to.equal('stopped');
  });
});

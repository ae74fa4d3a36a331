/**
 * Whether the lean path (xstate-internals/) may be used with the XState installed: the version is
 * one it was tested with (`TESTED_XSTATE`), and a probe machine run through a LeanActor and through
 * `createActor`, round by round with a JSON round trip between, gives the same persisted snapshots,
 * tags, meta and emitted events. Checked once per process, when the first flow engine is made; when
 * either fails, rounds take the public path and the engine logs why.
 */
import { StateMachine, assign, createActor, emit, raise, setup, type AnyMachineSnapshot } from 'xstate';
import { LeanActor } from './xstate-internals/index.js';
import { installedVersion, outsideWindow, type VersionWindow } from '../version-window.js';

/** The XState versions the lean path was tested with (package.json's peer range says the same). */
export const TESTED_XSTATE: VersionWindow = ['5.33.3', '5.34.0'];

/** The own keys of a machine snapshot, in the order XState makes them (persisting depends on it). */
const SNAPSHOT_KEYS =
  'status,output,error,machine,context,_nodes,value,tags,children,historyValue,matches,hasTag,can,getMeta,toJSON';

/** The installed XState's version, as its package.json says. */
export function installedXStateVersion(): string {
  return installedVersion('xstate');
}

/** Why a version is outside the tested range, or undefined when it is inside. */
export function untestedVersion(version: string): string | undefined {
  return outsideWindow('xstate', version, TESTED_XSTATE);
}

/**
 * A machine that uses what a round uses: context from input, assign, raise, emit, guarded
 * `always`, entry and exit actions, parallel regions, history, tags, meta and a final output.
 */
function probeMachine() {
  return setup({
    types: {} as {
      context: { n: number; log: string[] };
      input: { n: number };
      events: { type: 'GO' | 'BUMP' | 'A' | 'B' };
      emitted: { type: 'said'; n: number };
    },
  }).createMachine({
    id: 'probe',
    initial: 'ask',
    context: ({ input }) => ({ n: input.n, log: [] }),
    output: ({ context }) => context,
    states: {
      ask: {
        tags: ['t'],
        meta: { q: 1 },
        entry: [assign({ log: ({ context }) => [...context.log, 'in'] }), emit({ type: 'said', n: 1 })],
        exit: assign({ log: ({ context }) => [...context.log, 'out'] }),
        on: {
          GO: { target: 'both', actions: raise({ type: 'BUMP' }) },
          BUMP: { actions: assign({ n: ({ context }) => context.n + 1 }) },
        },
      },
      both: {
        type: 'parallel',
        on: { BUMP: { actions: assign({ n: ({ context }) => context.n + 10 }) } },
        states: {
          a: { initial: 'x', states: { x: { on: { A: 'y' } }, y: { type: 'final' } } },
          b: { initial: 'x', states: { x: { on: { B: 'y' } }, y: { type: 'final' }, h: { type: 'history' } } },
        },
        onDone: 'check',
      },
      check: { always: [{ guard: ({ context }) => context.n > 100, target: 'ask' }, { target: 'end' }] },
      end: { type: 'final' },
    },
  });
}

/**
 * Runs the probe machine through the lean path and through `createActor`, round by round with a
 * JSON round trip between, and says where they differ (undefined when they agree).
 */
function probeDifference(): string | undefined {
  const machine = probeMachine();
  if (!(machine instanceof StateMachine)) return 'xstate machines are not StateMachine instances';
  for (const name of ['transition', 'getInitialSnapshot', 'restoreSnapshot', 'getPersistedSnapshot', 'start']) {
    if (typeof (machine as unknown as Record<string, unknown>)[name] !== 'function')
      return `machine.${name} is missing`;
  }
  const events: Array<Array<{ type: 'GO' | 'A' | 'B' }>> = [[], [{ type: 'GO' }], [{ type: 'A' }, { type: 'B' }]];
  let leanState: unknown;
  let publicState: unknown;
  for (const round of events) {
    const lean = new LeanActor(machine, { snapshot: leanState, input: { n: 1 } });
    const real = createActor(machine, { snapshot: publicState as never, input: { n: 1 } });
    if (Object.keys(lean.getSnapshot()).join() !== SNAPSHOT_KEYS) return 'a snapshot has other keys';
    if (Object.keys(real.getSnapshot()).join() !== SNAPSHOT_KEYS) return 'a snapshot has other keys';
    const said: unknown[][] = [[], []];
    lean.on('said', (e: unknown) => said[0]!.push(e));
    real.on('said', (e) => said[1]!.push(e));
    lean.start();
    real.start();
    for (const event of round) {
      lean.send(event);
      real.send(event);
    }
    const text = (
      actor: { getPersistedSnapshot(): unknown; getSnapshot(): AnyMachineSnapshot },
      emitted: unknown[],
    ) => {
      const snapshot = actor.getSnapshot();
      return JSON.stringify([actor.getPersistedSnapshot(), [...snapshot.tags], snapshot.getMeta(), emitted]);
    };
    const leanText = text(lean, said[0]!);
    const realText = text(real, said[1]!);
    if (leanText !== realText) {
      return `the probe machine's snapshots differ (${leanText} against ${realText})`;
    }
    leanState = JSON.parse(JSON.stringify(lean.getPersistedSnapshot()));
    publicState = JSON.parse(JSON.stringify(real.getPersistedSnapshot()));
    lean.stop();
    real.stop();
  }
  return undefined;
}

export type LeanSupport = { ok: true } | { ok: false; reason: string };

let support: LeanSupport | undefined;

/**
 * Whether the lean path may be used with the installed XState, checked once: the version is one
 * it was tested with, and the probe machine gives the same snapshots both ways.
 */
export function leanActorSupport(): LeanSupport {
  if (support) return support;
  let reason: string | undefined;
  try {
    reason = untestedVersion(installedXStateVersion()) ?? probeDifference();
  } catch (error) {
    reason = `the probe failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  support = reason === undefined ? { ok: true } : { ok: false, reason };
  return support;
}

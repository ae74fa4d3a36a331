/**
 * What moves a planned path on without the user: invoked work finishing (with each outcome the
 * test gives for that actor, else with a stand-in output), timers firing, and the events invoked
 * work sends its parent (`build.done` from a callback actor).
 *
 * XState's pure transitions run no actor and start no timer: they return what an actor system
 * would do (`xstate.spawnChild`, `xstate.stopChild`, a delayed `xstate.raise`, `xstate.cancel`).
 * The plan keeps that book itself (`Pending`), so it offers exactly the work the real round
 * would have running: a child once per start, a timer once per scheduling, none after its state
 * is left.
 */
import { type AnyActorLogic, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { actorKind } from '../engine/round/actor-kinds.js';
import type { ActorOutcome } from './actor-outcomes.js';

/** A value that answers every property read, so pure transitions on `event.output.x` go on. */
export const anyOutput: unknown = new Proxy(function () {}, {
  get: (_target, property) => (property === Symbol.toPrimitive ? () => 1 : anyOutput),
  apply: () => anyOutput,
});

/** What the planned tool answers, from the final snapshot's output (toToolResult's rule for isError). */
export function outputKind(output: unknown): 'result' | 'tool error' | undefined {
  if (output === anyOutput) return undefined;
  if (typeof output !== 'object' || output === null) return 'result';
  const { content, isError } = output as { content?: unknown; isError?: unknown };
  if (content === anyOutput || isError === anyOutput) return undefined;
  return Array.isArray(content) && isError === true ? 'tool error' : 'result';
}

/** The children running (by id: the actor's name) and the timers scheduled (by id: their event), on one path. */
export interface Pending {
  children: ReadonlyMap<string, string>;
  timers: ReadonlyMap<string, AnyEventObject>;
}

export const NOTHING_PENDING: Pending = { children: new Map(), timers: new Map() };

type Action = { type?: string; params?: unknown };

/** The id of the child a `done`/`error` event ends (`xstate.done.actor.<id>`), if it is one. */
export function endedChild(event: AnyEventObject): string | undefined {
  return event.type.match(/^xstate\.(?:done|error)\.actor\.(.+)$/)?.[1];
}

/**
 * `pending` after the actions one transition returned, less the timer that just fired or the
 * child that just ended (a done or error event ends its child whether or not a transition takes it).
 */
export function afterTransition(pending: Pending, actions: readonly Action[], fired?: WorkStep): Pending {
  const children = new Map(pending.children);
  const timers = new Map(pending.timers);
  if (fired?.kind === 'finish') children.delete(endedChild(fired.event)!);
  if (fired?.kind === 'timer') timers.delete(fired.source);
  for (const { type, params } of actions) {
    const p = params as Record<string, unknown> | undefined;
    if (type === 'xstate.spawnChild' && typeof p?.id === 'string') children.set(p.id, String(p.src));
    // Its params are the child actor itself (the id is the invoke's or the spawn's).
    else if (type === 'xstate.stopChild' && typeof p?.id === 'string') children.delete(p.id);
    else if (type === 'xstate.raise' && typeof p?.delay === 'number' && p.event) {
      const timer = p.event as AnyEventObject;
      timers.set(typeof p.id === 'string' ? p.id : timer.type, timer);
    } else if (type === 'xstate.cancel' && typeof p?.sendId === 'string') timers.delete(p.sendId);
  }
  return { children, timers };
}

/**
 * One thing that happens without the user. `source` names what it counts against (an actor, a
 * timer, an event type) for the bound on repeats; `outcome` is set when the test gave it, and
 * `guessed` when the actor's output is the stand-in.
 */
export interface WorkStep {
  kind: 'finish' | 'timer' | 'sent';
  event: AnyEventObject;
  source: string;
  actor?: string;
  outcome?: ActorOutcome;
  guessed?: boolean;
}

/** An event whose every field reads as the stand-in output. */
function eventFromWork(type: string): AnyEventObject {
  return new Proxy(
    { type },
    {
      get: (target, property) =>
        property in target ? target[property as 'type'] : typeof property === 'symbol' ? undefined : anyOutput,
    },
  );
}

function finishes(id: string, actor: string, outcomes: Record<string, ActorOutcome[]> | undefined): WorkStep[] {
  const given = outcomes?.[actor];
  if (!given) {
    return [
      {
        kind: 'finish',
        event: { type: `xstate.done.actor.${id}`, output: anyOutput },
        source: actor,
        actor,
        guessed: true,
      },
    ];
  }
  return given.map((outcome) => ({
    kind: 'finish',
    event:
      'error' in outcome
        ? { type: `xstate.error.actor.${id}`, error: outcome.error }
        : { type: `xstate.done.actor.${id}`, output: outcome.output },
    source: actor,
    actor,
    outcome,
  }));
}

/** Event types a state that invokes `id` handles from its child (not answers, not XState's own). */
function sentTypes(snapshot: AnyMachineSnapshot, id: string): string[] {
  const node = snapshot._nodes.find((n) => n.invoke.some((invoke) => invoke.id === id));
  return Object.keys(node?.on ?? {}).filter(
    (type) => !type.startsWith('xstate.') && !type.startsWith('answer.') && !type.includes('*'),
  );
}

/**
 * The work that can move `snapshot` on. `finishing` says whether some of it finishes by itself (an
 * invoked promise, or an actor the test gave outcomes for, which runs as one): a round waits for
 * that before it asks anything (settle.ts), so the plan answers no question before it either.
 */
export function pendingWork(
  snapshot: AnyMachineSnapshot,
  pending: Pending,
  outcomes: Record<string, ActorOutcome[]> | undefined,
  logicOf: (actor: string) => AnyActorLogic | undefined,
): { steps: WorkStep[]; finishing: boolean } {
  const steps: WorkStep[] = [];
  let finishing = false;
  for (const [id, actor] of pending.children) {
    const kind = outcomes?.[actor] ? 'promise' : actorKind(logicOf(actor));
    if (kind === 'promise') finishing = true;
    // A callback or observable never finishes by itself; a promise sends nothing but its end.
    if (kind !== 'callback' && kind !== 'observable') steps.push(...finishes(id, actor, outcomes));
    if (kind !== 'promise') {
      steps.push(
        ...sentTypes(snapshot, id).map((type) => ({ kind: 'sent' as const, event: eventFromWork(type), source: type })),
      );
    }
  }
  for (const [id, event] of pending.timers) steps.push({ kind: 'timer', event, source: id });
  return { steps, finishing };
}

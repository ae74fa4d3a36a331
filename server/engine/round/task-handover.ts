/**
 * Where a synchronous round stops and a task takes over. In a request from a client that declared
 * the tasks extension, a task-capable tool runs as usual until the machine either enters a state
 * tagged `baton.task` or has work running (an invoked actor, an `after` timer). Questions asked
 * before that point are answered synchronously with multi round-trip requests, as the extension
 * recommends (tasks.md, "Task Creation"); the rest runs as a task.
 *
 * The round runs with the machine's named actors parked (stand-ins that never settle): reaching
 * long work must not start it in the request, because the task restores the snapshot on a worker,
 * where XState starts the persisted child again with its saved input.
 */
import { fromPromise, type AnyActorLogic, type AnyStateMachine } from 'xstate';
import { pendingWork } from './pending-work.js';
import type { HandoverPoint } from './settle.js';
import { TASK_TAG } from '../authoring/task-authoring.js';

export const taskHandover: HandoverPoint = (actor, snapshot) => {
  if (snapshot.hasTag(TASK_TAG)) return true;
  const work = pendingWork(actor, snapshot);
  return work.finishing.length > 0 || work.endless.length > 0 || work.timers.length > 0;
};

const parked = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const parkedMachines = new WeakMap<AnyStateMachine, AnyStateMachine>();

function isMachine(logic: AnyActorLogic): boolean {
  return typeof (logic as { root?: unknown }).root === 'object';
}

/** The machine with every named actor that is not itself a machine replaced by a parked stand-in. */
export function withParkedActors(machine: AnyStateMachine): AnyStateMachine {
  let provided = parkedMachines.get(machine);
  if (!provided) {
    const actors = (machine.implementations.actors ?? {}) as Record<string, AnyActorLogic>;
    const standIns: Record<string, AnyActorLogic> = {};
    for (const [name, logic] of Object.entries(actors)) if (!isMachine(logic)) standIns[name] = parked;
    provided = machine.provide({ actors: standIns as never });
    parkedMachines.set(machine, provided);
  }
  return provided;
}

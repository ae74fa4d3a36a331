/**
 * The actor a round runs its machine in. A round in a request, on a machine that invokes nothing
 * and has no `after` (and no spawn or delayed event written into its actions), runs in a
 * LeanActor (xstate-internals/): XState's own machine functions without the cost of an `Actor`
 * and its system made and stopped for every round. Everything else (task steps, a round that may
 * hand over to a task, a snapshot that holds children), and every round when the lean path is off
 * or not supported by the XState installed, runs in XState's `createActor`: the public path.
 */
import { createActor, type AnyActor, type AnyStateMachine } from 'xstate';
import { leanActorSupport, type LeanSupport } from './lean-path-check.js';
import { LeanActor, leanEligible } from './xstate-internals/index.js';
import type { Logger } from '../logger.js';
import { isRecord } from '../plain-objects.js';

/**
 * `auto`: the lean path where a round allows it (the default of a flow engine); `public`: always
 * XState's own actor (BATON_XSTATE_PATH=public, and the second run of the fidelity tests).
 */
export type XStatePath = 'auto' | 'public';

export interface RoundActorOptions {
  snapshot?: unknown;
  input: unknown;
}

/** Makes each round's actor on the path chosen once, when the kernel is made. */
export class RoundActors {
  readonly lean: boolean;

  /** `support` is the check of the XState installed (lean-path-check.ts), injected by tests. */
  constructor(path: XStatePath, logger: Logger, support: () => LeanSupport = leanActorSupport) {
    if (path === 'public') {
      this.lean = false;
      return;
    }
    const checked = support();
    this.lean = checked.ok;
    if (!checked.ok) logger.warn('xstate_public_path', { reason: checked.reason });
  }

  /** `mayBeLean`: the round is one the lean path serves (a round in a request that cannot hand over). */
  create(machine: AnyStateMachine, options: RoundActorOptions, mayBeLean: boolean): AnyActor {
    if (mayBeLean && this.lean && leanEligible(machine) && !holdsChildren(options.snapshot)) {
      return new LeanActor(machine, options) as unknown as AnyActor;
    }
    return options.snapshot === undefined
      ? createActor(machine, { input: options.input })
      : createActor(machine, { snapshot: options.snapshot as never, input: options.input });
  }
}

/** A snapshot sealed with children (spawned machines idle at a question) is restored by XState. */
function holdsChildren(snapshot: unknown): boolean {
  if (!isRecord(snapshot) || !isRecord(snapshot.children)) return false;
  for (const _ in snapshot.children) return true;
  return false;
}

/**
 * What an invoked actor comes to on a planned path: done with an output, or failed with an error.
 * A test gives them by actor name (`outcomes: { checkQuota: [done({ ok: false }), done({ ok: true })] }`)
 * so the plan walks each branch of `onDone` guards and `onError`, and the replay runs a stand-in
 * that ends the way the path says, one outcome per time the actor is invoked.
 */
import { fromPromise, type AnyActorLogic } from 'xstate';

/** How an invoked actor ends on a planned path: `done(output)` or `fail(error)`. */
export type ActorOutcome = { output: unknown } | { error: unknown };

/** The actor finishes with `output` (its `onDone` runs). */
export const done = (output?: unknown): ActorOutcome => ({ output });

/** The actor fails with `error` (its `onError` runs). */
export const fail = (error: unknown = new Error('failed')): ActorOutcome => ({ error });

export function describeOutcome(outcome: ActorOutcome): string {
  if ('output' in outcome) return outcome.output === undefined ? 'done' : `done ${JSON.stringify(outcome.output)}`;
  const error = outcome.error;
  return `error${error instanceof Error ? ` "${error.message}"` : error === undefined ? '' : ` ${JSON.stringify(error)}`}`;
}

/**
 * Stand-ins that end as the path planned, one outcome per invocation in order; an invocation
 * beyond the plan fails and is reported through `overrun`. `unused()` names the actors invoked
 * fewer times than planned, with how many planned outcomes were left.
 */
export function plannedStandIns(
  outcomes: Record<string, ActorOutcome[]>,
  overrun: (actor: string, planned: number) => void,
): { actors: Record<string, AnyActorLogic>; unused: () => Record<string, number> } {
  const queues = Object.fromEntries(Object.entries(outcomes).map(([actor, planned]) => [actor, [...planned]]));
  const actors = Object.fromEntries(
    Object.entries(outcomes).map(([actor, planned]) => {
      const queue = queues[actor]!;
      const logic = fromPromise(async () => {
        const next = queue.shift();
        if (!next) {
          overrun(actor, planned.length);
          throw new Error(`"${actor}" was invoked more often than the path planned (${planned.length})`);
        }
        if ('error' in next) throw next.error;
        return next.output;
      });
      return [actor, logic];
    }),
  );
  const unused = () =>
    Object.fromEntries(
      Object.entries(queues)
        .filter(([, queue]) => queue.length > 0)
        .map(([actor, queue]) => [actor, queue.length]),
    );
  return { actors, unused };
}

/**
 * An invoked effect that a task step may run twice (docs/tasks.md, "at least once"), made safe by
 * the key Baton derives for it; compiled with the docs' blocks.
 */
import { fromPromise } from 'xstate';
import { idempotencyKey } from 'baton-mcp';

/** A promotion API that drops a repeat of a key it has seen. */
declare const promotionApi: {
  promote(artifact: string, options: { idempotencyKey: string; signal: AbortSignal }): Promise<{ promotion: string }>;
};

// #region idempotent-effect
export const promote = fromPromise<{ promotion: string }, { artifact: string }>(
  async ({ input, self, system, signal }) => {
    const key = idempotencyKey({ self, system }); // `<taskId>/<invoked actor id>`
    return promotionApi.promote(input.artifact, { idempotencyKey: key, signal });
  },
);
// #endregion idempotent-effect

/**
 * The one door to XState's internals: this folder, and nothing outside it opens it (its files are
 * imported only through this one). A round on the hot path runs its machine in a `LeanActor`
 * (lean-actor.ts, lean-system.ts): a trimmed copy of XState's `Actor` and actor system
 * (xstate 5.33, `Actor` and `createSystem` in `dist/raise-*.js`) that drives the machine through
 * the same `StateMachine` functions an `Actor` calls (`getInitialSnapshot`, `transition`, `start`),
 * so every transition, action, guard, `emit` and error runs in XState's own code, in the same
 * order. What it leaves out is what a round never uses: the inspection events nobody listens to,
 * the mailbox's linked list and bound functions, the actor system's maps until a child needs them,
 * and a whole macrostep to stop an actor that has no children. It also restores and persists a
 * snapshot without children itself (the state tree of a state value is computed once per value),
 * byte for byte as XState does (lean-snapshots.ts).
 *
 * What it relies on that XState does not document: the actor-scope and system contract those
 * functions call back into (`defer`, `actionExecutor`, `system._relay`, `_bookId`, `_register`, the
 * scheduler), the fields a child actor reads on its parent (`_send`, `_parent`, `_processingStatus`),
 * the shape and key order of a machine snapshot (`_nodes`) and of a persisted one. So it is used
 * only with the XState versions it was tested with, only after a probe at start-up has run the same
 * machine both ways and found the same snapshots (lean-path-check.ts), and only for machines without
 * invoked actors or delays (`leanEligible`); anything else takes the public path, `createActor`.
 */
export { LeanActor, type LeanActorOptions } from './lean-actor.js';
export { leanEligible } from './lean-eligibility.js';

/**
 * Earlier versions of a tool, kept beside the current one (`defineTool({ versions: [...] })`).
 * Every sealed state and task record names the structural version of the machine that made it
 * (state/structural-version.ts). When a deploy changes the structure, a flow or task in flight
 * whose version is listed here does not restart: it continues on the kept machine to its end
 * (same questions, same effects), or moves onto the current machine at its next round boundary
 * through a migration. New calls always start on the current machine (docs/deploy.md).
 */
import type { AnyStateMachine } from 'xstate';

/** What a context transform is told besides the context itself. */
export interface MigrationMeta {
  /** The call's arguments (the machine's input), as bound into the state. */
  input: Record<string, unknown>;
  /** The structural version the snapshot was made by. */
  from: string;
  /** Where the snapshot stood in the earlier machine: its leaf state paths (`'review.legal'`). */
  states: readonly string[];
}

/**
 * How a paused snapshot of an earlier version moves onto the current machine. It runs once, at a
 * round boundary (a request presenting a sealed state, a task step starting), before the answers
 * of that round are delivered; answers reach the migrated machine's questions of the same key.
 */
export interface Migration {
  /**
   * Where each state of the earlier machine lands in the current one, by state path (`'confirm'`,
   * `'review.legal'`): the longest listed prefix of a path wins, and what follows it is kept
   * (`{ review: 'approval' }` moves `review.legal` to `approval.legal`). A path not listed keeps
   * its name. A path that names no state of the current machine fails the migration.
   */
  states?: Record<string, string>;
  /** The context the current machine continues with, from the earlier one's (default: unchanged). */
  context?: (context: Record<string, unknown>, meta: MigrationMeta) => Record<string, unknown>;
}

/**
 * One earlier version. With `machine` alone, flows of that version finish on it. With `migrate`,
 * they move onto the current machine; a migration that throws or lands in a state that does not
 * exist falls back to `machine` when it is kept, else the flow restarts as before (a task, which
 * never restarts, is failed with a message instead). Which of the two is the author's choice, per
 * version. A tool definition of the earlier version (`versions: [releaseV1Tool]`) is one too.
 */
export interface EarlierVersion {
  /** The earlier machine exactly as it was served, kept as code (e.g. `tools/release.v1.ts`). */
  machine?: AnyStateMachine;
  /**
   * The earlier structural version, when its machine is not kept (from `baton.versions.json` or
   * the `request_state_restarted` log line): only a `migrate` can then continue its flows.
   */
  version?: string;
  migrate?: Migration;
  /** How logs and start-up messages name this version (`v1`); its structural version otherwise. */
  label?: string;
}

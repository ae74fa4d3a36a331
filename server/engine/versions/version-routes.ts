/**
 * The catalogue's answer to "(tool, structural version) -> machine" for a sealed state or task
 * record that the current machine did not make: continue on a kept machine, migrate onto the
 * current one, or neither (a flow restarts; a task waits for a worker that knows the version).
 * Asked only when the version differs from the current one, so a flow on the current version
 * pays nothing; the routes of a tool are built on the first such question and kept.
 */
import type { AnyStateMachine } from 'xstate';
import type { EarlierVersion, Migration } from '../authoring/tool-versions.js';
import { migrateSnapshot } from './snapshot-migration.js';

/** One earlier version as the engine uses it. */
export interface VersionRoute {
  /** Its structural version. */
  version: string;
  /** How logs name it: the author's label, else the structural version. */
  label: string;
  /** The kept machine: flows finish on it, or fall back to it when a migration fails. */
  machine?: AnyStateMachine;
  migration?: Migration;
}

export type Continuation =
  /** On the kept machine, which seals its own version again. `problem`: why a migration failed first. */
  | { kind: 'kept'; route: VersionRoute; machine: AnyStateMachine; problem?: string }
  /** On the current machine, from the migrated snapshot. */
  | { kind: 'migrated'; route: VersionRoute; snapshot: Record<string, unknown> }
  /** Neither: an unknown version, or a failed migration with no machine kept to fall back to. */
  | { kind: 'unknown'; route?: VersionRoute; problem?: string };

/** What a route is asked of: a tool's current machine and its earlier versions. */
export interface VersionedFlow {
  readonly machine: AnyStateMachine;
  readonly versions?: readonly EarlierVersion[] | undefined;
}

export class VersionRoutes {
  readonly #byList = new WeakMap<readonly EarlierVersion[], ReadonlyMap<string, VersionRoute>>();

  constructor(readonly versionOf: (machine: AnyStateMachine) => string) {}

  /** The route of `version` under `flow`, if it keeps or migrates that version. */
  route(flow: VersionedFlow, version: string): VersionRoute | undefined {
    const { versions } = flow;
    if (!versions || versions.length === 0) return undefined;
    let routes = this.#byList.get(versions);
    if (!routes) {
      routes = this.#build(versions);
      this.#byList.set(versions, routes);
    }
    return routes.get(version);
  }

  /**
   * How a paused `snapshot` of `version` continues under `flow`: the migration is tried first
   * when the version declares one, then the kept machine; a migration's problem is returned with
   * the fallback, for the caller's log.
   */
  continuation(flow: VersionedFlow, version: string, snapshot: unknown, input: Record<string, unknown>): Continuation {
    const route = this.route(flow, version);
    if (!route) return { kind: 'unknown' };
    let problem: string | undefined;
    if (route.migration) {
      const migrated = migrateSnapshot(snapshot, route.migration, flow.machine, { input, from: route.version });
      if ('snapshot' in migrated) return { kind: 'migrated', route, snapshot: migrated.snapshot };
      problem = migrated.problem;
    }
    if (route.machine) return { kind: 'kept', route, machine: route.machine, ...(problem ? { problem } : {}) };
    return { kind: 'unknown', route, ...(problem ? { problem } : {}) };
  }

  #build(versions: readonly EarlierVersion[]): ReadonlyMap<string, VersionRoute> {
    const routes = new Map<string, VersionRoute>();
    for (const entry of versions) {
      // The start-up checks refuse an entry with neither (version-checks.ts).
      const version = entry.version ?? (entry.machine ? this.versionOf(entry.machine) : undefined);
      if (version === undefined || routes.has(version)) continue;
      routes.set(version, {
        version,
        label: entry.label ?? version,
        ...(entry.machine ? { machine: entry.machine } : {}),
        ...(entry.migrate ? { migration: entry.migrate } : {}),
      });
    }
    return routes;
  }
}

/** Earlier versions of a tool beside the current one: routes, migration, start-up checks (docs/deploy.md). */
export { VersionRoutes, type Continuation, type VersionRoute, type VersionedFlow } from './version-routes.js';
export { migrateSnapshot, type Migrated } from './snapshot-migration.js';
export { versionProblems } from './version-checks.js';
export { leafPaths } from './state-paths.js';
export { applyStartOn, startingOn } from './start-on.js';

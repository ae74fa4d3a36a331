// The fast loop (`npm run test:fast`): every test file except those that need a child process,
// a browser or an external server, which are listed in SLOW below. A new test file is in both
// loops by default; if it starts a child process, forbid-child-processes.ts fails it here with a
// message naming this list. `npm test` runs every file, listed or not. Redis code is covered here
// against test/helpers/fake-redis (in process); the redis-server suites below stay in `npm test`.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const base = require('../../.mocharc.json');

const ROOT = join(__dirname, '..', '..');

/** Test files that start a child process, a browser or a server of their own (redis, nginx). */
const SLOW = [
  'test/bench/ha-bench.test.ts',
  'test/bench/python-targets.test.ts',
  'test/bench/task-floor.test.ts',
  'test/cli/call-command.test.ts',
  'test/cli/command-line.test.ts',
  'test/cli/dev-command.test.ts',
  'test/cli/editor/editor-routes.test.ts',
  'test/cli/export-command.test.ts',
  'test/cli/new-command.test.ts',
  'test/cli/tasks-command-redis.test.ts',
  'test/cli/v8-settings.test.ts',
  'test/cli/versions-keep.test.ts',
  'test/cli/worker-cluster.test.ts',
  'test/docs-site/docs-command.test.ts',
  'test/engine/tasks/bullmq-task-queue.test.ts',
  'test/engine/tasks/job-runs.test.ts',
  'test/engine/tasks/redis-owner-ledger.test.ts',
  'test/engine/tasks/redis-task-deadlines.test.ts',
  'test/engine/tasks/redis-task-listing.test.ts',
  'test/engine/tasks/redis-task-store.test.ts',
  'test/engine/xstate/children.test.ts',
  'test/features/console-browser.test.ts',
  'test/features/console-stuck-frozen.test.ts',
  'test/features/docs-browser.test.ts',
  'test/features/docs-effects.test.ts',
  'test/features/docs-ext-tasks-example.test.ts',
  'test/features/draw-a-tool-browser.test.ts',
  'test/features/editor-browser.test.ts',
  'test/features/fleet-sessions.test.ts',
  'test/features/fleet.test.ts',
  'test/features/missing-binaries.test.ts',
  'test/features/multi-instance.test.ts',
  'test/features/official-client-stdio.test.ts',
  'test/features/readme-start.test.ts',
  'test/features/redis-cluster.test.ts',
  'test/features/redis-sentinel-failover.test.ts',
  'test/features/rolling-deploy.test.ts',
  'test/features/single-use-guard-hardening.test.ts',
  'test/features/single-use.test.ts',
  'test/features/stdio-process.test.ts',
  'test/features/tasks-cancel-reaches-step.test.ts',
  'test/features/tasks-expiry-on-redis.test.ts',
  'test/features/tasks-first-step-on-redis.test.ts',
  'test/features/tasks-fleet.test.ts',
  'test/features/tasks-frozen-step.test.ts',
  'test/features/tasks-soak.test.ts',
  'test/features/try-it-browser.test.ts',
  'test/features/try-it-diagram-browser.test.ts',
  'test/features/workers.test.ts',
  'test/http/oversized-body.test.ts',
  'test/machines/release-edit.test.ts',
  'test/package/new-project.test.ts',
  'test/package/packed-package.test.ts',
  'test/scripts/ci-what-failed.test.ts',
  'test/security/stalled-bodies.test.ts',
  'test/settings/serve-aggregated-metrics.test.ts',
  'test/settings/serve-otlp-metrics.test.ts',
  'test/telemetry/flow-trace.test.ts',
  'test/telemetry/prometheus-scrape.test.ts',
];

// A renamed or deleted file must leave the list too, or the list would stop saying what is slow.
const missing = SLOW.filter((file) => !existsSync(join(ROOT, file)));
if (missing.length > 0) throw new Error(`fast.mocharc.cjs lists test files that do not exist: ${missing.join(', ')}`);

module.exports = {
  ...base,
  spec: ['test/**/*.test.ts'],
  ignore: SLOW,
  require: ['test/support/forbid-child-processes.ts'],
  // Many of these tests wait on timers more than they compute: two workers halve the wait. They
  // also share the two cores, so a slow hook (the docs pages generated twice) gets twice the time.
  parallel: true,
  jobs: 2,
  timeout: 2 * base.timeout,
};

/**
 * A queued ship-release task record of `owner`, with a fresh id, for the store and quota tests.
 */
import type { TaskRecord } from '../../../server/engine/index.js';

let next = 0;

export function queuedRecord(owner: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    taskId: `t${next++}`,
    principal: 'p',
    owner,
    tool: 'ship-release',
    arguments: { service: 'api' },
    version: 'v',
    clientCapabilities: {},
    status: 'working',
    phase: 'queued',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    snapshot: { value: 'building', context: {} },
    timers: [],
    asked: {},
    answers: {},
    askCounts: {},
    cancelRequested: false,
    ...overrides,
  };
}

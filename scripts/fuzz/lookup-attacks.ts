/**
 * Lists that name what Baton must look up (issue 38, finding 1): `subscriptions/listen` with the
 * largest list of task ids a 1 MiB body holds, all repeats of one task with the largest record a
 * caller may create with the served tools, then as many distinct ids. Each id list must cost at
 * most the capped number of look-ups (64), each of a task's head: the server stays up, serves an
 * honest caller meanwhile, and its resident memory grows by far less than one copy of the record
 * per id (the red team's 5,000 repeats ran it out of memory).
 */
import { randomBytes } from 'node:crypto';
import { TASKS_EXTENSION } from '../../server/engine/index.js';
import { message } from '../../test/helpers/hostile-messages.js';
import { mcpRequest, type Attack, type Finding } from './attack.js';
import type { FuzzContext } from './fuzz-context.js';
import { BODY_LIMIT } from './message-attacks.js';
import { mib, residentBytes } from './process-memory.js';

const TASKS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
/** The resident growth allowed for the whole category (issue 38's bar: under 200 MB). */
const MAX_RSS_GROWTH = 200 * 1024 * 1024;

/**
 * ship-release's arguments as large as its schema lets a caller make them: no other properties,
 * and a string without `maxLength` holds at most 4,096 characters. (The red team's 950 KB task was
 * a tool of their own with a larger `maxLength`; test/features/listen-repeated-task-ids.test.ts
 * covers that size at the dispatcher.)
 */
function largestArguments(): Record<string, unknown> {
  return { service: 's'.repeat(4096), version: 'v'.repeat(4096), bakeSeconds: 3600 };
}

/** As many ids as fit in a body just under the 1 MiB limit. */
function fill(next: () => string): string[] {
  const ids: string[] = [];
  let bytes = 2_000; // the envelope around the list
  while (bytes < BODY_LIMIT - 64) {
    const id = next();
    ids.push(id);
    bytes += id.length + 3;
  }
  return ids;
}

export async function listenTaskIds(ctx: FuzzContext, count: number): Promise<Finding[]> {
  const created = await ctx.honest('tools/call', { name: 'ship-release', arguments: largestArguments() }, TASKS);
  const taskId = created?.result?.taskId;
  if (typeof taskId !== 'string') {
    return [
      {
        kind: 'refused',
        label: 'the largest task to name',
        detail: JSON.stringify(created).slice(0, 300),
        request: 'tools/call',
      },
    ];
  }
  const listen = (taskIds: string[], label: string): Attack => ({
    label,
    bytes: mcpRequest(ctx.port, JSON.stringify(message('subscriptions/listen', { notifications: { taskIds } }, TASKS))),
    expectJson: true,
    // The task bakes for an hour: an accepted stream stays open until the client gives up.
    mayTimeOut: true,
    timeoutMs: 3_000,
  });
  const repeated = fill(() => taskId);
  const distinct = fill(() => randomBytes(16).toString('base64url'));
  const attacks = Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? listen(repeated, `listen naming one task ${repeated.length} times`)
      : listen([taskId, ...distinct.slice(1)], `listen naming ${distinct.length} distinct task ids`),
  );
  const before = ctx.pid === undefined ? undefined : residentBytes(ctx.pid);
  let peak = before ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, (ctx.pid && residentBytes(ctx.pid)) || 0)), 100);
  const findings: Finding[] = [];
  try {
    const sent = ctx.sendAll(attacks);
    const honest = await ctx.honest('tools/list', {});
    if (!Array.isArray(honest?.result?.tools)) {
      findings.push({
        kind: 'starved',
        label: 'honest tools/list during the id lists',
        detail: JSON.stringify(honest),
        request: 'tools/list',
      });
    }
    await sent;
  } finally {
    clearInterval(sampler);
  }
  if (before !== undefined && peak - before > MAX_RSS_GROWTH) {
    findings.push({
      kind: 'memory',
      label: `${count} listens with ${repeated.length} task ids each`,
      detail: `resident memory grew ${mib(peak - before)} (from ${mib(before)}), over ${mib(MAX_RSS_GROWTH)}`,
      request: 'subscriptions/listen',
    });
  }
  return findings;
}

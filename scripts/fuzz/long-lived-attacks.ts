/**
 * Attacks on what lives long (issue 26): listen streams that never end, tasks created in a loop,
 * and 2025-11-25 sessions padded to be heavy. Each runs from 127.0.0.1 while honest calls come
 * from HONEST_ADDRESS and must still be served; each must meet its limit (-31000) rather than make
 * the server hold more.
 */
import { TASKS_EXTENSION } from '../../server/engine/index.js';
import { message } from '../../test/helpers/hostile-messages.js';
import { mcpRequest, type Attack, type Finding } from './attack.js';
import type { FuzzContext } from './fuzz-context.js';
import { mib } from './process-memory.js';
import { buildRequest } from './raw-http.js';

const TASKS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const refusedBy = (reason: string) => (sent: { message?: any }) => sent.message?.error?.data?.reason === reason;

/** An honest tools/list from HONEST_ADDRESS; a finding when it is not served. */
async function honestServed(ctx: FuzzContext, during: string): Promise<Finding[]> {
  const answer = await ctx.honest('tools/list', {});
  if (Array.isArray(answer?.result?.tools)) return [];
  return [
    {
      kind: 'starved',
      label: `honest tools/list during ${during}`,
      detail: JSON.stringify(answer),
      request: 'tools/list',
    },
  ];
}

/**
 * `count` listen streams on one parked task from one address (the red team's 256 made every
 * other client get 503): past the caller's share they are refused with -31000 (429), the ones
 * accepted stay open until the client gives up, and another address is served meanwhile. Each
 * asks for a thousand task ids besides: at most 64 are looked up.
 */
export async function listenFloods(ctx: FuzzContext, count: number): Promise<Finding[]> {
  const created = await ctx.honest(
    'tools/call',
    { name: 'ship-release', arguments: { service: 'fuzz-listen', version: '1', bakeSeconds: 3600 } },
    TASKS,
  );
  const taskId = created?.result?.taskId;
  if (typeof taskId !== 'string') {
    return [{ kind: 'refused', label: 'a task to follow', detail: JSON.stringify(created), request: 'tools/call' }];
  }
  const noise = Array.from({ length: 1000 }, (_, i) => `unknown-${i}`);
  const listen = (): Attack => ({
    label: 'listen stream held open',
    bytes: mcpRequest(
      ctx.port,
      JSON.stringify(message('subscriptions/listen', { notifications: { taskIds: [taskId, ...noise] } }, TASKS)),
    ),
    expectJson: true,
    mayTimeOut: true,
    timeoutMs: 3_000,
  });
  const streams = Array.from({ length: count }, () => ctx.send(listen()));
  await sleep(500);
  const findings = await honestServed(ctx, `${count} listen streams`);
  const sent = await Promise.all(streams);
  const refused = sent.filter(refusedBy('listen_streams')).length;
  if (refused === 0 && count > 16) {
    findings.push({
      kind: 'unbounded',
      label: `${count} listen streams from one address`,
      detail: 'none was refused: no per-caller limit on listen streams',
      request: 'subscriptions/listen',
    });
  }
  return findings;
}

/**
 * `count` tasks from one address, as fast as it can (143 a second, each kept 24 h, in the red
 * team's probe): past the caller's live tasks they are refused with -31000 before anything is
 * stored, a 900 KB argument is refused as a tool error, and another address still starts a task.
 */
export async function taskFloods(ctx: FuzzContext, count: number, quota: number): Promise<Finding[]> {
  const call = (service: string): Attack => ({
    label: service.length > 100 ? 'task with a 900 KB argument' : 'task in a loop',
    bytes: mcpRequest(
      ctx.port,
      JSON.stringify(
        message('tools/call', { name: 'ship-release', arguments: { service, version: '1', bakeSeconds: 3600 } }, TASKS),
      ),
    ),
    expectJson: true,
  });
  const sent = await ctx.sendAll([
    call('x'.repeat(900_000)),
    ...Array.from({ length: count }, (_, i) => call(`t${i}`)),
  ]);
  const findings: Finding[] = [];
  const created = sent.filter((s) => s.message?.result?.resultType === 'task').length;
  if (created > quota) {
    findings.push({
      kind: 'unbounded',
      label: `${count} tasks from one address`,
      detail: `${created} were created, over the live-task quota of ${quota}`,
      request: 'tools/call ship-release',
    });
  }
  if (sent[0]?.message?.result?.isError !== true) {
    findings.push({
      kind: 'unbounded',
      label: 'task with a 900 KB argument',
      detail: `not refused: ${JSON.stringify(sent[0]?.message).slice(0, 200)}`,
      request: 'tools/call ship-release',
    });
  }
  const honest = await ctx.honest(
    'tools/call',
    { name: 'ship-release', arguments: { service: 'fuzz-honest', version: '1', bakeSeconds: 3600 } },
    TASKS,
  );
  if (honest?.result?.resultType !== 'task') {
    findings.push({
      kind: 'starved',
      label: 'an honest task from another address',
      detail: JSON.stringify(honest),
      request: 'tools/call ship-release',
    });
  }
  return findings;
}

/**
 * `count` 2025-11-25 sessions, each `initialize` padding its capabilities with 256 KB (0.9 MiB
 * each in the red team's probe, kept whole per session up to 10,000 sessions). The server must
 * keep only what it needs: its retained heap may grow by at most `maxGrowthMb` however many
 * sessions come.
 */
export async function legacySessionMemory(ctx: FuzzContext, count: number, maxGrowthMb = 16): Promise<Finding[]> {
  const before = await ctx.heap?.();
  const padding = 'x'.repeat(256 * 1024);
  const initialize = (i: number): Attack => ({
    label: 'initialize with padded capabilities',
    bytes: buildRequest(ctx.port, {
      headers: [
        ['Content-Type', 'application/json'],
        ['Accept', 'application/json, text/event-stream'],
      ],
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: { form: {}, padding }, experimental: { padding } },
          clientInfo: { name: padding.slice(0, 64 * 1024), version: '1' },
        },
      }),
    }),
    expectJson: true,
  });
  await ctx.sendAll(Array.from({ length: count }, (_, i) => initialize(i)));
  const after = await ctx.heap?.();
  const findings = await honestServed(ctx, `${count} padded sessions`);
  if (
    before &&
    after &&
    after.heapUsed + after.external - (before.heapUsed + before.external) > maxGrowthMb * 1024 * 1024
  ) {
    findings.push({
      kind: 'memory',
      label: `${count} sessions with 256 KB of capabilities each`,
      detail: `heap + external after full GC ${mib(before.heapUsed + before.external)} → ${mib(after.heapUsed + after.external)} (allowed +${maxGrowthMb} MiB)`,
      request: 'initialize',
    });
  }
  return findings;
}

/**
 * Attacks on resources rather than parsing (issue 13): bodies that arrive almost whole and stall,
 * headers that never finish, and one client claiming single-use states for everyone. Each runs
 * from 127.0.0.1 while honest calls come from HONEST_ADDRESS and must still be served.
 */
import { openState, type KeyRing } from '../../server/engine/index.js';
import { message } from '../../test/helpers/hostile-messages.js';
import { jsonRpcOf, mcpRequest, type Finding } from './attack.js';
import { HONEST_ADDRESS, type FuzzContext } from './fuzz-context.js';
import { mib, residentBytes } from './process-memory.js';
import { exchange } from './raw-http.js';

const MIB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One honest release, start to finish (from HONEST_ADDRESS, as every honest call); undefined when
 * it deployed the right thing, else what went wrong.
 */
export async function honestRelease(ctx: FuzzContext, service: string): Promise<string | undefined> {
  const args = { service, version: '1.0.0' };
  const first = await ctx.honest('tools/call', { name: 'release', arguments: args });
  const second = await ctx.honest('tools/call', {
    name: 'release',
    arguments: args,
    requestState: first?.result?.requestState,
    inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
  });
  const third = await ctx.honest('tools/call', {
    name: 'release',
    arguments: args,
    requestState: second?.result?.requestState,
    inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
  });
  const out = third?.result?.structuredContent;
  if (out?.released === true && out.deploymentId === `${service}@1.0.0#now`) return undefined;
  return `unexpected answers: ${JSON.stringify([first, second, third]).slice(0, 400)}`;
}

/**
 * `count` connections each send headers and 1 MiB minus one byte of a 1 MiB body, then stall (the
 * red-team pass took RSS from 67 MB to 1.11 GB with 1,000). An honest release runs meanwhile, and
 * the server's RSS must stay within `maxGrowthMb` of its reading before. Each stalled request ends
 * with a 503 (over the body budget), a closed socket (over the per-client socket cap) or the
 * client giving up.
 */
export async function stalledMegabyteBodies(ctx: FuzzContext, count: number, maxGrowthMb = 150): Promise<Finding[]> {
  const findings: Finding[] = [];
  const before = ctx.pid === undefined ? undefined : residentBytes(ctx.pid);
  let peak = before ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, (ctx.pid && residentBytes(ctx.pid)) || 0)), 50);
  // One buffer for every connection: the attack must not cost this process a gigabyte either.
  const bytes = Buffer.concat([
    Buffer.from(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${MIB}\r\n\r\n`,
    ),
    Buffer.alloc(MIB - 1, 0x20),
  ]);
  try {
    const stalls = Array.from({ length: count }, () =>
      ctx.send({
        label: 'stalled 1 MiB body',
        bytes,
        expectJson: false,
        mayDrop: true,
        mayTimeOut: true,
        timeoutMs: 2_000,
      }),
    );
    await sleep(500);
    const problem = await honestRelease(ctx, `during-stalled-bodies-${ctx.seed}`);
    if (problem) {
      findings.push({
        kind: 'starved',
        label: `honest release during ${count} stalled 1 MiB bodies`,
        detail: problem,
        request: 'release',
      });
    }
    await Promise.all(stalls);
  } finally {
    clearInterval(sampler);
  }
  if (before !== undefined && peak - before > maxGrowthMb * MIB) {
    findings.push({
      kind: 'memory',
      label: `${count} stalled 1 MiB bodies`,
      detail: `RSS ${mib(before)} → peak ${mib(peak)} (allowed +${maxGrowthMb} MiB)`,
      request: 'POST /mcp, Content-Length: 1048576, 1048575 bytes sent',
    });
  }
  return findings;
}

/**
 * `count` sockets that trickle one header line every 250 ms and never finish: each must be closed
 * by the server (its headers timeout) before `withinMs`, and an honest request is served meanwhile.
 */
export async function slowHeaders(ctx: FuzzContext, count: number, withinMs: number): Promise<Finding[]> {
  const head = Buffer.from(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\n`);
  const drip = Buffer.from('X-Slow: 1\r\n');
  const later = Array.from({ length: Math.floor(withinMs / 250) }, (_, k) => ({ afterMs: 250 * (k + 1), bytes: drip }));
  // Not judged as hangs by `send`: a trickling client that the server never closes is the finding.
  const slow = Array.from({ length: count }, () =>
    ctx.send({ label: 'slow headers', bytes: head, expectJson: false, mayDrop: true, timeoutMs: withinMs, later }),
  );
  await sleep(500);
  const findings: Finding[] = [];
  const outcome = await exchange(ctx.port, mcpRequest(ctx.port, JSON.stringify(message('server/discover', {}))), {
    timeoutMs: 5_000,
    localAddress: HONEST_ADDRESS,
  });
  if (outcome.kind !== 'response' || outcome.status !== 200) {
    findings.push({
      kind: 'starved',
      label: `honest request during ${count} slow-header sockets`,
      detail: outcome.kind === 'response' ? String(outcome.status) : outcome.kind,
      request: 'server/discover',
    });
  }
  await Promise.all(slow);
  return findings;
}

/**
 * One anonymous client claims single-use states as fast as it can: resends without answers (which
 * must not claim), then confirmations answered "no" on fresh flows, `flows` of them. The guard
 * must refuse it once it holds its quota (`single_use_quota`), and an honest release from another
 * address must still deploy.
 */
export async function guardFlooding(ctx: FuzzContext, flows: number): Promise<Finding[]> {
  const findings: Finding[] = [];
  const call = async (params: Record<string, unknown>) => {
    const sent = await ctx.send({
      label: 'guard flooding',
      bytes: mcpRequest(ctx.port, JSON.stringify(message('tools/call', { name: 'release', ...params }))),
      expectJson: true,
      noEffect: true,
    });
    return sent.outcome.kind === 'response' ? jsonRpcOf(sent.outcome) : undefined;
  };
  let refused = 0;
  let resendsClaimed = 0;
  for (let i = 0; i < flows; i += 1) {
    const args = { service: `flood-${ctx.seed}-${i}`, version: '1' };
    const first = await call({ arguments: args });
    const second = await call({
      arguments: args,
      requestState: first?.result?.requestState,
      inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
    });
    const state = second?.result?.requestState;
    if (i % 10 === 0) {
      const resend = await call({ arguments: args, requestState: state });
      if (resend?.result?.requestState !== state) resendsClaimed += 1;
    }
    const no = await call({
      arguments: args,
      requestState: state,
      inputResponses: { confirm: { action: 'accept', content: { confirm: false } } },
    });
    if (no?.error?.data?.reason === 'single_use_quota') refused += 1;
  }
  if (resendsClaimed > 0) {
    findings.push({
      kind: 'unbounded',
      label: 'resending a single-use state without answers',
      detail: `${resendsClaimed} resends were answered with a fresh state (a claim each)`,
      request: 'tools/call release, requestState only',
    });
  }
  if (refused === 0) {
    findings.push({
      kind: 'unbounded',
      label: `${flows} single-use claims from one client`,
      detail: 'never refused with single_use_quota',
      request: 'tools/call release, confirm: false',
    });
  }
  const problem = await honestRelease(ctx, `after-flood-${ctx.seed}`);
  if (problem) {
    findings.push({
      kind: 'starved',
      label: 'honest release after a guard flood',
      detail: problem,
      request: 'release',
    });
  }
  return findings;
}

/** The largest `requestState` Baton issues by default (BATON_MAX_STATE_BYTES). */
const MAX_STATE_LENGTH = 16 * 1024;

/**
 * Answers that try to inflate a small state (the red-team pass sealed a 1 MB answer, which
 * compresses to almost nothing, into a 1.76 KB state): a free-text field far over its
 * `maxLength`, and a large property the schema does not name. Each must be asked again, dropped or
 * refused, never sealed: every state issued stays within the documented maximum, sealed and
 * opened (the attack holds the server's key to weigh what is inside).
 */
export async function inflation(ctx: FuzzContext, count: number, keyRing: KeyRing): Promise<Finding[]> {
  const findings: Finding[] = [];
  const call = async (params: Record<string, unknown>) => {
    const sent = await ctx.send({
      label: 'state inflation',
      bytes: mcpRequest(ctx.port, JSON.stringify(message('tools/call', { name: 'collect-feedback', ...params }))),
      expectJson: true,
      noEffect: true,
    });
    return sent.outcome.kind === 'response' ? jsonRpcOf(sent.outcome) : undefined;
  };
  for (let i = 0; i < count; i += 1) {
    const args = { subject: `inflation-${ctx.seed}-${i}` };
    const first = await call({ arguments: args });
    const big = 'x'.repeat(300_000 + (i % 3) * 100_000);
    const content =
      i % 2 === 0 ? { rating: 1, comment: big } : { rating: 1, comment: 'ok', unasked: big, more: { nested: big } };
    const second = await call({
      arguments: args,
      requestState: first?.result?.requestState,
      inputResponses: { rating: { action: 'accept', content } },
    });
    const state = second?.result?.requestState;
    const opened = typeof state === 'string' ? openState(state, keyRing, 64 * MAX_STATE_LENGTH) : undefined;
    const inside = opened ? JSON.stringify(opened.snapshot).length : 0;
    if (typeof state === 'string' && (state.length > MAX_STATE_LENGTH || inside > 4 * MAX_STATE_LENGTH)) {
      findings.push({
        kind: 'unbounded',
        label: 'a large answer sealed into the next state',
        detail: `a ${big.length}-character answer gave a ${state.length}-character requestState holding ${inside} characters`,
        request: 'tools/call collect-feedback, rating answered with a huge comment',
      });
      break;
    }
  }
  return findings;
}

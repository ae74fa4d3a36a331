/**
 * `npm run fuzz`: thousands of malformed and hostile requests against a real Baton process.
 *
 * Baton runs as a child process (`node --import tsx server/cli/cli.ts serve`, conformance fixtures
 * on, a fresh BATON_KEYS, and the heap probe of scripts/fuzz/heap-probe.ts preloaded) on a free
 * 127.0.0.1 port. After a warm-up of honest flows its retained heap is read; then each attack
 * category is sent with bounded concurrency: wrong types, arbitrary JSON, random methods and
 * `_meta`, deep nesting, huge strings around the 1 MiB body limit, invalid UTF-8, wrong content
 * types, forged / replayed states, unasked answers, internal event names, header injection, odd
 * methods and paths, stalled bodies and a burst of connections, and what lives long: listen
 * streams, tasks and padded 2025-11-25 sessions, and listens naming 1 MiB of task ids.
 *
 * Checks: one per category (no 5xx, hang, dropped well-framed request, non-JSON-RPC answer from
 * the endpoint, -32603 answer, or effect reached by an attack; a category that sent nothing
 * fails), then: the server is alive, an honest release still completes correctly, nothing the
 * attacks sent is still held (heap + external after full collections, back within a few MiB of
 * the warm-up reading; RSS is reported only), and nothing they sent was logged at level error.
 * The last line is `fuzz: N passed, N failed`; exit 1 on a failure.
 *
 * Options (flags or environment): --requests=N (FUZZ_REQUESTS, 5000), --concurrency=N
 * (FUZZ_CONCURRENCY, 32), --seed=N (FUZZ_SEED, random; printed to replay a run), --timeout-ms=N
 * (per request, 10000), --settle-ms=N (longest wait for the heap to come back, 30000),
 * --heap-slack-mb=N (4), --rounds=N (send the whole plan N times, with the retained heap after
 * each: tells a leak, which keeps growing, from a one-off; 1), --only=a,b (these categories only).
 */
import { generateKeyEntry, parseKeyRing } from '../server/engine/index.js';

/** The fuzzed server's key: the inflation attack opens the states it is given to weigh them. */
const FUZZ_KEYS = generateKeyEntry('fuzz');
import { BatonFleet, type BatonInstance } from '../test/helpers/spawn-baton.js';
import { createContext, type FuzzContext } from './fuzz/fuzz-context.js';
import { concurrentConnections, headerInjection, methodsAndPaths, stalledBodies } from './fuzz/http-attacks.js';
import {
  arbitraryJson,
  contentTypes,
  deepNesting,
  hugeStrings,
  invalidUtf8,
  methodsAndMeta,
  templates,
  wrongTypes,
} from './fuzz/message-attacks.js';
import { mib, probeRetainedHeap, residentBytes, type RetainedHeap } from './fuzz/process-memory.js';
import { buildRequest, exchange } from './fuzz/raw-http.js';
import {
  guardFlooding,
  honestRelease,
  inflation,
  slowHeaders,
  stalledMegabyteBodies,
} from './fuzz/resource-attacks.js';
import { forgedStates, internalEvents, replayedStates, unaskedAnswers } from './fuzz/state-attacks.js';
import { legacySessionMemory, listenFloods, taskFloods } from './fuzz/long-lived-attacks.js';
import { listenTaskIds } from './fuzz/lookup-attacks.js';
import { Tally } from './fuzz/tally.js';
import type { Finding } from './fuzz/attack.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Options {
  requests: number;
  concurrency: number;
  seed: number;
  timeoutMs: number;
  settleMs: number;
  heapSlackMb: number;
  rounds: number;
  /** Only these categories (all when empty). */
  only: string[];
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const flag = (name: string, variable: string, fallback: number) => {
    const raw = argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? env[variable];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got "${raw}"`);
    return value;
  };
  return {
    requests: flag('requests', 'FUZZ_REQUESTS', 5000),
    concurrency: Math.max(1, flag('concurrency', 'FUZZ_CONCURRENCY', 32)),
    seed: flag('seed', 'FUZZ_SEED', Math.floor(Math.random() * 2 ** 31)),
    timeoutMs: flag('timeout-ms', 'FUZZ_TIMEOUT_MS', 10_000),
    settleMs: flag('settle-ms', 'FUZZ_SETTLE_MS', 30_000),
    heapSlackMb: flag('heap-slack-mb', 'FUZZ_HEAP_SLACK_MB', 4),
    rounds: Math.max(1, flag('rounds', 'FUZZ_ROUNDS', 1)),
    only: (argv.find((a) => a.startsWith('--only='))?.slice(7) ?? env.FUZZ_ONLY ?? '').split(',').filter(Boolean),
  };
}

type Run = (ctx: FuzzContext, count: number) => Promise<void | Finding[]>;

/** Lowered for the fuzz run so the resource attacks see their limits within seconds. */
const SINGLE_USE_QUOTA = 100;
const LIVE_TASK_QUOTA = 20;
const SERVER_ENV = {
  BATON_CONFORMANCE: '1',
  BATON_HEADERS_TIMEOUT_MS: '3000',
  BATON_SINGLE_USE_QUOTA: String(SINGLE_USE_QUOTA),
  BATON_MAX_LIVE_TASKS_PER_CLIENT: String(LIVE_TASK_QUOTA),
};

/** Each category's share of the requests, and how it is sent. */
function plan(options: Options): Array<[string, number, Run]> {
  const n = options.requests;
  const share = (fraction: number) => Math.max(1, Math.round(n * fraction));
  const list =
    (build: (port: number, count: number, seed: number) => Parameters<FuzzContext['sendAll']>[0]): Run =>
    async (ctx, count) => {
      await ctx.sendAll(build(ctx.port, count, ctx.seed));
    };
  return [
    ['wrong-types', share(0.2), list(wrongTypes)],
    ['arbitrary-json', share(0.1), list(arbitraryJson)],
    ['methods-and-meta', share(0.08), list(methodsAndMeta)],
    ['invalid-utf8', share(0.06), list(invalidUtf8)],
    ['content-types', share(0.04), list(contentTypes)],
    ['forged-states', share(0.1), forgedStates],
    ['replayed-states', share(0.06), replayedStates],
    ['unasked-answers', share(0.07), unaskedAnswers],
    ['internal-events', share(0.07), internalEvents],
    ['header-injection', share(0.06), headerInjection],
    ['methods-and-paths', share(0.04), methodsAndPaths],
    // The heaviest last. Measured: run last, what they leave is collected within ~35 s of idle
    // (V8's memory reducer); run first, V8 sometimes kept its grown heap for minutes.
    ['huge-strings', share(0.012), list(hugeStrings)],
    ['deep-nesting', share(0.05), list(deepNesting)],
    // More than the default cap of 256 concurrent requests: stalled bodies must not take slots.
    ['stalled-bodies', Math.min(300, share(0.06)), (ctx, count) => stalledBodies(ctx, count, 2_000)],
    // 100 idle sockets and a burst of 150 requests: within the per-client socket cap (256), which
    // closes further sockets as they connect. With a burst of 200, whether all 300 were open at
    // once was a race: when they were, the cap closed 44 of them, counted as dropped.
    ['concurrent-connections', Math.min(150, share(0.03)), (ctx, count) => concurrentConnections(ctx, count, 100)],
    // Resource attacks (issue 13). More sockets than the per-client cap of 256; the headers
    // timeout is lowered for this run (SERVER_ENV) so closing them is seen within seconds.
    ['stalled-1mib-bodies', Math.min(400, share(0.08)), (ctx, count) => stalledMegabyteBodies(ctx, count)],
    ['slow-headers', Math.min(300, share(0.06)), (ctx, count) => slowHeaders(ctx, count, 6_000)],
    ['guard-flooding', Math.min(SINGLE_USE_QUOTA + 20, share(0.03)), (ctx, count) => guardFlooding(ctx, count)],
    ['inflation', Math.min(30, share(0.01)), (ctx, count) => inflation(ctx, count, parseKeyRing(FUZZ_KEYS))],
    // What lives long (issue 26): listen streams past the caller's share of 16, tasks past the
    // live-task quota (lowered for this run), sessions whose initialize is padded.
    ['listen-floods', Math.min(48, Math.max(24, share(0.008))), (ctx, count) => listenFloods(ctx, count)],
    [
      'task-floods',
      Math.min(40, Math.max(LIVE_TASK_QUOTA + 5, share(0.008))),
      (ctx, count) => taskFloods(ctx, count, LIVE_TASK_QUOTA),
    ],
    ['legacy-session-memory', Math.min(200, share(0.04)), (ctx, count) => legacySessionMemory(ctx, count)],
    // Lists that name what must be looked up (issue 38): 1 MiB of repeated and distinct task ids
    // against the largest task a caller may create.
    ['listen-task-ids', Math.min(8, Math.max(4, share(0.001))), (ctx, count) => listenTaskIds(ctx, count)],
  ];
}

/** Bytes the server holds that a leak would grow: the JS heap and memory owned by JS objects. */
const retained = (heap: RetainedHeap) => heap.heapUsed + heap.external;

async function healthy(port: number): Promise<boolean> {
  const outcome = await exchange(port, buildRequest(port, { method: 'GET', path: '/healthz' }), { timeoutMs: 5_000 });
  return outcome.kind === 'response' && outcome.status === 200;
}

async function fuzz(options: Options, baton: BatonInstance, exited: () => boolean): Promise<Tally> {
  const tally = new Tally();
  const ctx = createContext({
    port: baton.port,
    pid: baton.pid,
    seed: options.seed,
    keyId: 'fuzz',
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    tally,
    heap: () => probeRetainedHeap(baton.pid, baton.stderr),
  });

  // Every method and flow once (code loaded, schemas compiled), then honest releases.
  for (const template of templates())
    await ctx.honest(String(template.method), template.params as Record<string, unknown>);
  for (let i = 0; i < 20; i += 1) await honestRelease(ctx, `warmup-${i}`);
  const heapStart = await probeRetainedHeap(baton.pid, baton.stderr);
  if (!heapStart?.collected) throw new Error('the server has no heap probe (expected --expose-gc and heap-probe.ts)');
  let rssPeak = heapStart.rss;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, residentBytes(baton.pid) ?? 0);
  }, 250);
  say(
    `fuzz: server after warm-up: heap + external ${mib(retained(heapStart))} after full GC, RSS ${mib(heapStart.rss)}`,
  );

  try {
    for (let round = 1; round <= options.rounds && !exited(); round += 1) {
      for (const [name, count, run] of plan(options).filter(
        ([n]) => !options.only.length || options.only.includes(n),
      )) {
        const started = performance.now();
        tally.begin(options.rounds > 1 ? `${name} #${round}` : name);
        const extra = (await run({ ...ctx, seed: ctx.seed + round - 1 }, count)) ?? [];
        const check = tally.end(performance.now() - started, extra);
        say(`fuzz: ${check.passed ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
        if (exited()) break;
      }
      if (options.rounds > 1) {
        const heap = await probeRetainedHeap(baton.pid, baton.stderr);
        say(
          `fuzz: after round ${round}: heap + external ${heap ? mib(retained(heap)) : 'n/a'} after full GC, RSS ${mib(heap?.rss)}`,
        );
      }
    }
  } finally {
    clearInterval(sampler);
  }

  const alive = !exited() && (await healthy(baton.port));
  tally.check(
    'server alive',
    alive,
    alive ? `pid ${baton.pid} answers /healthz` : `pid ${baton.pid} is gone or not answering`,
  );
  const problem = alive ? await honestRelease(ctx, 'after-fuzz') : 'server not running';
  tally.check(
    'honest release after the attacks',
    problem === undefined,
    problem ?? 'window → confirm → released, right deployment',
  );

  // The leak check: what the server still holds after full collections (its heap probe), against
  // the same reading after the warm-up. RSS is reported, not judged: the allocator keeps pages the
  // huge bodies needed long after they are free, so RSS cannot tell a leak from a high-water mark.
  // A leak stays put however long we wait; request bodies still being timed out do not, so the
  // probe is repeated every 2 s until the heap is back or settleMs has passed.
  const slack = options.heapSlackMb * 1024 * 1024;
  const settleStarted = Date.now();
  let heapEnd = alive ? await probeRetainedHeap(baton.pid, baton.stderr) : undefined;
  while (
    alive &&
    heapEnd &&
    retained(heapEnd) > retained(heapStart) + slack &&
    Date.now() - settleStarted < options.settleMs
  ) {
    await sleep(2_000);
    heapEnd = await probeRetainedHeap(baton.pid, baton.stderr);
  }
  const settledIn = ((Date.now() - settleStarted) / 1000).toFixed(0);
  const grew = heapEnd ? retained(heapEnd) - retained(heapStart) : NaN;
  tally.check(
    'no memory retained by the attacks',
    Number.isFinite(grew) && grew <= slack,
    heapEnd
      ? `heap + external after full GC: ${mib(retained(heapStart))} after warm-up, ${mib(retained(heapEnd))} after the attacks (${grew >= 0 ? '+' : ''}${mib(grew)}, ${settledIn} s of settling; allowed +${options.heapSlackMb} MiB); RSS ${mib(heapStart.rss)} → peak ${mib(rssPeak)} → ${mib(heapEnd.rss)}`
      : 'the server did not answer its heap probe',
  );
  return tally;
}

/** The error-level events in what the server logged (the last 64 KiB of its stderr), counted. */
function serverErrors(stderr: string): string[] {
  const counts = new Map<string, number>();
  for (const line of stderr.split('\n')) {
    try {
      const entry = JSON.parse(line) as { level?: string; event?: string; error?: unknown };
      // Each event with its first error text, so a client-caused error shows what it was.
      const key = `${String(entry.event)}${entry.error === undefined ? '' : ` (${String(entry.error).slice(0, 80)})`}`;
      if (entry.level === 'error') counts.set(key, (counts.get(key) ?? 0) + 1);
    } catch {
      // Not a log line (the dev-key banner, a stack trace).
    }
  }
  return [...counts].map(([event, n]) => `${event} ×${n}`);
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const fleet = new BatonFleet();
  const stop = (signal: NodeJS.Signals) => {
    void fleet.stopAll(2_000).then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const baton = await fleet.start({
      keys: FUZZ_KEYS,
      env: SERVER_ENV,
      nodeArgs: ['--expose-gc', '--import', './scripts/fuzz/heap-probe.ts'],
      readyTimeoutMs: 60_000,
    });
    let gone = false;
    void baton.exited.then(() => {
      gone = true;
    });
    say(
      `fuzz: seed ${options.seed}, ${options.requests} requests planned, concurrency ${options.concurrency}, baton pid ${baton.pid} on ${baton.url}`,
    );
    const started = performance.now();
    const tally = await fuzz(options, baton, () => gone);
    // Anyone can send what the attacks send: an error-level log line for it drowns the server's
    // real errors (a client's mistake is a warning at most).
    const errors = serverErrors(baton.stderr());
    tally.check(
      'nothing the attacks sent is logged as an error',
      errors.length === 0,
      `server error log events (last 64 KiB of stderr): ${errors.join(', ') || 'none'}`,
    );
    tally.print(say);
    if (gone) say(`\nserver stderr (tail):\n${baton.stderr().slice(-4000)}`);
    const failed = tally.checks.filter((c) => !c.passed).length;
    say(
      `\nfuzz: ${tally.attackRequests} hostile requests in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${options.seed})`,
    );
    say(`fuzz: ${tally.checks.length - failed} passed, ${failed} failed`);
    return failed > 0 ? 1 : 0;
  } catch (error) {
    say(`fuzz: could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    say('fuzz: 0 passed, 1 failed');
    return 1;
  } finally {
    await fleet.stopAll(3_000);
  }
}

main().then((code) => process.exit(code));

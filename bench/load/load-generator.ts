/**
 * The load generator: N virtual clients, each driving one MRTR flow after another over a shared
 * keep-alive agent, for a warm-up and then a measured window, after which it stops by itself.
 * Only requests and flows that complete inside the window are counted; a flow that straddles the
 * start counts with its full latency, one still running at the end is abandoned.
 *
 * A count-bounded mode (`maxFlows`) runs without a window until that many flows completed (the
 * memory check).
 */
import { performance } from 'node:perf_hooks';
import { requestsPerFlow, type BenchFlow } from '../flows/bench-flows.js';
import { keepAliveAgent, post, type PostTarget } from './http-post.js';
import { readRound, requestBody, requestHeaders, type QuestionKeys, type RoundInput } from './mcp-exchange.js';
import { SampleBuffer, summarize, type LatencySummary } from './percentiles.js';

export interface LoadOptions {
  url: string;
  flow: BenchFlow;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /** Count-bounded mode: no warm-up or window; stop once this many flows completed. */
  maxFlows?: number;
  /** Count-bounded mode: stop anyway after this long (a slow machine must not run for ever). */
  maxDurationMs?: number;
  /** Who names the keys of the target's `inputRequests` (bench/targets/target-catalogue.ts); 'flow' if unset. */
  questionKeys?: QuestionKeys;
  /** Called when the measured window opens and closes (the runner samples server CPU there). */
  onWindowStart?: () => Promise<void> | void;
  onWindowEnd?: () => Promise<void> | void;
  /** Called every `progressEvery` completed flows in count-bounded mode. */
  onProgress?: (flows: number) => Promise<void> | void;
  progressEvery?: number;
  requestTimeoutMs?: number;
}

export interface StateSizes {
  /** Largest sealed state seen after each asking round (index 0: the first `input_required`). */
  maxByRound: number[];
  min: number;
  max: number;
  mean: number;
}

export interface LoadResult {
  windowMs: number;
  flows: number;
  requests: number;
  errors: number;
  /** The first few distinct error messages. */
  errorSamples: string[];
  flowsPerSecond: number;
  requestsPerSecond: number;
  requestLatencyMs: LatencySummary;
  flowLatencyMs: LatencySummary;
  /** Body bytes per request, averaged over the window. */
  requestBytes: number;
  responseBytes: number;
  stateSizes: StateSizes;
  /** CPU time of the generator over the window, in µs per request (to see whether it saturated). */
  clientCpuMicrosPerRequest: number;
}

const ERROR_SAMPLES = 5;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const target: PostTarget = { hostname: url.hostname, port: Number(url.port), path: url.pathname };
  const agent = keepAliveAgent(options.concurrency);
  const headers = requestHeaders(options.flow.tool);
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  const countBounded = options.maxFlows !== undefined;

  const requestLatency = new SampleBuffer();
  const flowLatency = new SampleBuffer();
  const stateLengths = new SampleBuffer();
  const maxByRound: number[] = [];
  const errorSamples = new Set<string>();
  let recording = countBounded;
  let stopped = false;
  let nextId = 1;
  let flows = 0;
  let requests = 0;
  let errors = 0;
  let requestBytes = 0;
  let responseBytes = 0;

  // Errors count from the first request (warm-up included): a run passes only without any.
  function fail(message: string) {
    errors++;
    if (errorSamples.size < ERROR_SAMPLES) errorSamples.add(message);
  }

  async function driveOneFlow(): Promise<void> {
    const flowStart = performance.now();
    const known: Record<string, unknown> = { ...options.flow.arguments };
    let input: RoundInput = {};
    for (let round = 0; round < requestsPerFlow(options.flow); round++) {
      const id = nextId++;
      const body = requestBody(id, options.flow, input);
      const sent = performance.now();
      let reply;
      try {
        reply = await post(agent, target, headers, body, timeoutMs);
      } catch (error) {
        if (stopped) return;
        fail(`request failed: ${(error as Error).message}`);
        // Do not spin on a refused connection.
        await new Promise((resolve) => setTimeout(resolve, 10));
        return;
      }
      const answered = performance.now();
      if (stopped) return;
      if (recording) {
        requests++;
        requestLatency.push(answered - sent);
        requestBytes += body.length;
        responseBytes += reply.body.length;
      }
      const reading = readRound(options.flow, round, id, reply, known, options.questionKeys);
      if (reading.kind === 'error') return fail(reading.message);
      if (reading.kind === 'done') {
        if (recording) {
          flows++;
          flowLatency.push(answered - flowStart);
        }
        if (countBounded && flows >= options.maxFlows!) stopped = true;
        else if (countBounded && options.progressEvery && flows % options.progressEvery === 0) {
          await options.onProgress?.(flows);
        }
        return;
      }
      if (reading.stateLength !== undefined) {
        stateLengths.push(reading.stateLength);
        maxByRound[round] = Math.max(maxByRound[round] ?? 0, reading.stateLength);
      }
      input = reading.next;
    }
    fail(`no result after ${requestsPerFlow(options.flow)} requests`);
  }

  async function virtualClient(): Promise<void> {
    while (!stopped) await driveOneFlow();
  }

  let windowStart = performance.now();
  let windowEnd = windowStart;
  let cpuStart = process.cpuUsage();
  let cpuUsed = { user: 0, system: 0 };
  const timers: NodeJS.Timeout[] = [];
  let windowClosed: Promise<void> = Promise.resolve();
  if (countBounded && options.maxDurationMs !== undefined) {
    timers.push(
      setTimeout(() => {
        stopped = true;
      }, options.maxDurationMs),
    );
  }
  if (!countBounded) {
    const windowOpened = new Promise<void>((resolve, reject) => {
      timers.push(
        setTimeout(() => {
          Promise.resolve(options.onWindowStart?.()).then(() => {
            cpuStart = process.cpuUsage();
            windowStart = performance.now();
            recording = true;
            resolve();
          }, reject);
        }, options.warmupMs),
      );
    });
    // The window's end is timed from its actual start: a start timer that fired late (a busy
    // machine) would otherwise shorten the measured window.
    windowClosed = windowOpened.then(
      () =>
        new Promise<void>((resolve, reject) => {
          timers.push(
            setTimeout(() => {
              recording = false;
              windowEnd = performance.now();
              cpuUsed = process.cpuUsage(cpuStart);
              stopped = true;
              Promise.resolve(options.onWindowEnd?.()).then(() => resolve(), reject);
            }, options.durationMs),
          );
        }),
    );
    // A failing hook (the target died) stops the clients too; the error is rethrown below.
    const stop = () => {
      stopped = true;
    };
    windowOpened.catch(stop);
    windowClosed.catch(stop);
  }
  try {
    await Promise.all(Array.from({ length: options.concurrency }, () => virtualClient()));
    await windowClosed;
  } finally {
    for (const timer of timers) clearTimeout(timer);
    agent.destroy();
  }
  if (countBounded) {
    windowEnd = performance.now();
    cpuUsed = process.cpuUsage(cpuStart);
  }

  const windowMs = windowEnd - windowStart;
  const states = stateLengths.values();
  let stateTotal = 0;
  let stateMin = Infinity;
  let stateMax = 0;
  for (const length of states) {
    stateTotal += length;
    stateMin = Math.min(stateMin, length);
    stateMax = Math.max(stateMax, length);
  }
  return {
    windowMs,
    flows,
    requests,
    errors,
    errorSamples: [...errorSamples],
    flowsPerSecond: (flows * 1000) / windowMs,
    requestsPerSecond: (requests * 1000) / windowMs,
    requestLatencyMs: summarize(requestLatency.values()),
    flowLatencyMs: summarize(flowLatency.values()),
    requestBytes: requests ? requestBytes / requests : 0,
    responseBytes: requests ? responseBytes / requests : 0,
    stateSizes: {
      maxByRound,
      min: states.length ? stateMin : 0,
      max: stateMax,
      mean: states.length ? stateTotal / states.length : 0,
    },
    clientCpuMicrosPerRequest: requests ? (cpuUsed.user + cpuUsed.system) / requests : 0,
  };
}

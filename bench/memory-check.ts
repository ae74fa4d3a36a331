/**
 * The stateless-memory check: a fresh Baton process serves three-question flows; its RSS (and
 * heap) after a warm-up is compared with its RSS after `flows` more completed flows, each read
 * after a forced GC. Baton keeps nothing per flow, so the two should be close.
 */
import { threeQuestionFlow } from './flows/bench-flows.js';
import { runLoad } from './load/load-generator.js';
import { spawnTarget } from './targets/target-handle.js';
import type { Usage } from './targets/target-protocol.js';

export interface MemorySample {
  flows: number;
  rss: number;
  heapUsed: number;
}

export interface MemoryResult {
  concurrency: number;
  warmupFlows: number;
  flows: number;
  afterWarmup: MemorySample;
  afterFlows: MemorySample;
  /** Readings along the way (every tenth of the run). */
  timeline: MemorySample[];
  errors: number;
  errorSamples: string[];
  flowsPerSecond: number;
}

export async function runMemoryCheck(options: {
  flows: number;
  warmupFlows: number;
  concurrency: number;
  /** The check stops after this long even if fewer flows completed (the result says how many). */
  maxSeconds: number;
  cpus?: string;
}): Promise<MemoryResult> {
  const target = await spawnTarget('baton', options.cpus ? { cpus: options.cpus } : {});
  const sample = (flows: number, usage: Usage): MemorySample => ({
    flows,
    rss: usage.rss,
    heapUsed: usage.heapUsed ?? NaN,
  });
  try {
    const warm = await runLoad({
      url: target.url,
      flow: threeQuestionFlow,
      concurrency: options.concurrency,
      warmupMs: 0,
      durationMs: 0,
      maxFlows: options.warmupFlows,
    });
    const afterWarmup = sample(0, await target.usage({ gc: true }));
    const timeline: MemorySample[] = [afterWarmup];
    const every = Math.max(1, Math.floor(options.flows / 10));
    const run = await runLoad({
      url: target.url,
      flow: threeQuestionFlow,
      concurrency: options.concurrency,
      warmupMs: 0,
      durationMs: 0,
      maxFlows: options.flows,
      maxDurationMs: options.maxSeconds * 1000,
      progressEvery: every,
      onProgress: async (flows) => {
        if (flows < options.flows) timeline.push(sample(flows, await target.usage({ gc: true })));
      },
    });
    const afterFlows = sample(run.flows, await target.usage({ gc: true }));
    timeline.push(afterFlows);
    return {
      concurrency: options.concurrency,
      warmupFlows: warm.flows,
      flows: run.flows,
      afterWarmup,
      afterFlows,
      timeline,
      errors: warm.errors + run.errors,
      errorSamples: [...warm.errorSamples, ...run.errorSamples].slice(0, 5),
      flowsPerSecond: run.flowsPerSecond,
    };
  } finally {
    await target.stop();
  }
}

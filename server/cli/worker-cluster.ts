/**
 * `baton serve --workers N`: one primary process forks N workers (node:cluster) that share the
 * listening port, so one host uses several cores. Each worker is a full, independent Baton
 * instance with its own `Baton-Instance` id (`host:pid`); nothing is shared between them but the
 * key ring, exactly as between the instances of a fleet.
 *
 * - The primary serves nothing itself: it forks, restarts a worker that dies (after a short pause
 *   that grows while workers keep dying young, so a crash loop does not spin), and on SIGTERM or
 *   SIGINT stops every worker (SIGTERM, then SIGKILL after a grace period) and exits.
 * - A worker that stops on a configuration error (exit code 78) is not restarted: every worker
 *   would fail the same way. The primary stops the others and exits 78.
 * - Without BATON_KEYS the primary generates the ephemeral development key once and hands it to
 *   every worker; otherwise each worker would seal with its own key and no flow could move
 *   between workers.
 */
import cluster, { type Worker } from 'node:cluster';
import { ConfigurationError, generateKeyEntry, type Logger } from '../engine/index.js';

export const CONFIGURATION_EXIT_CODE = 78;

/** The value of `--workers` as a count; undefined without the option. */
export function workerCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(count) || count < 1 || count > 1024) {
    throw new ConfigurationError(
      `--workers must be a whole number from 1 to 1024, got "${value}". Use e.g. --workers 4 (one per core).`,
    );
  }
  return count;
}

export interface WorkerClusterOptions {
  workers: number;
  logger: Logger;
  /** How long stopping workers may take before they are killed (default 10 s). */
  stopGraceMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Runs the primary until it is told to stop; resolves with the exit code for the process. */
export function runWorkerCluster(options: WorkerClusterOptions): Promise<number> {
  const { workers, logger } = options;
  const env = options.env ?? process.env;
  const workerEnv: Record<string, string> = {};
  if (!env.BATON_KEYS) workerEnv.BATON_KEYS = generateKeyEntry('dev');
  const startedAt = new Map<Worker, number>();
  let stopping = false;
  let quickDeaths = 0;

  const fork = () => {
    const worker = cluster.fork(workerEnv);
    startedAt.set(worker, Date.now());
  };

  return new Promise((resolve) => {
    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      logger.info('workers_stopping', { workers: Object.keys(cluster.workers ?? {}).length });
      const alive = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
      if (alive.length === 0) return resolve(code);
      const killer = setTimeout(() => {
        for (const worker of alive) if (!worker.isDead()) worker.process.kill('SIGKILL');
      }, options.stopGraceMs ?? 10_000);
      let remaining = alive.length;
      for (const worker of alive) {
        worker.once('exit', () => {
          remaining -= 1;
          if (remaining === 0) {
            clearTimeout(killer);
            resolve(code);
          }
        });
        worker.process.kill('SIGTERM');
      }
    };

    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (startedAt.get(worker) ?? 0);
      startedAt.delete(worker);
      if (stopping) return;
      if (code === CONFIGURATION_EXIT_CODE) {
        logger.error('worker_misconfigured', { pid: worker.process.pid });
        return stop(CONFIGURATION_EXIT_CODE);
      }
      quickDeaths = lived < 5_000 ? quickDeaths + 1 : 0;
      // Never at once: a signal sent to the whole process group reaches the workers first, and
      // the primary's own handler must get to set `stopping` before anything is restarted.
      const pause = Math.min(30_000, 100 * 2 ** quickDeaths);
      logger.warn('worker_died', { pid: worker.process.pid, code, signal, restartInMs: pause });
      setTimeout(() => {
        if (!stopping) fork();
      }, pause);
    });
    process.once('SIGTERM', () => stop(0));
    process.once('SIGINT', () => stop(0));

    for (let i = 0; i < workers; i += 1) fork();
    logger.info('workers_started', { primary: process.pid, workers });
  });
}

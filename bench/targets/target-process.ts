/**
 * Entry of a target child process: `node --import tsx bench/targets/target-process.ts <kind>`.
 * Starts one target on 127.0.0.1 (a free port), reports its URL over IPC, and answers `usage`
 * requests with its own CPU time and memory (forcing a GC first when asked and `--expose-gc` is
 * on). This is the bench harness's measuring channel: nothing of it is in Baton's server.
 * It exits when the runner disconnects, so no target outlives the bench.
 */
import type { StartedTarget } from './started-target.js';
import { startBaton } from './baton-target.js';
import { startFloor } from './floor-target.js';
import { startSdk } from './sdk-target.js';
import type { TargetKind, TargetMessage, UsageRequest } from './target-protocol.js';
import { socketWriteTotals, timeSocketWrites } from './write-timer.js';
import { requestWorkTotals } from './request-work.js';
import { applyV8Settings } from '../../server/v8-settings.js';

// The Node targets; the Python ones run as scripts of their own (python-target-handle.ts).
const starters: Partial<Record<TargetKind, () => Promise<StartedTarget>>> = {
  baton: startBaton,
  sdk: startSdk,
  floor: startFloor,
};

function send(message: TargetMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const kind = process.argv[2] as TargetKind;
  const start = starters[kind];
  if (!start || !process.send) {
    process.stderr.write('usage: (over IPC) target-process.ts baton|sdk|floor\n');
    process.exit(2);
  }
  timeSocketWrites();
  // Every target runs with the V8 settings `baton` runs with (server/v8-settings.ts): the same
  // engine settings for all, so only the servers differ.
  applyV8Settings();
  const target = await start();
  process.on('message', (message: UsageRequest) => {
    if (message?.type !== 'usage') return;
    if (message.gc) (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    send({
      type: 'usage',
      id: message.id,
      cpu: process.cpuUsage(),
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      writes: socketWriteTotals(),
      work: requestWorkTotals(),
    });
  });
  process.on('disconnect', () => {
    target.server.closeAllConnections();
    target.server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  });
  // The runner stops a target with SIGTERM: exit normally, so `--cpu-prof` gets to write its profile.
  process.once('SIGTERM', () => process.exit(0));
  send({ type: 'ready', url: target.url, pid: process.pid });
}

main().catch((error: unknown) => {
  process.stderr.write(`target failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

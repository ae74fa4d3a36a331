/**
 * Preloaded into the fuzz run's Baton process (`node --expose-gc --import tsx --import
 * ./scripts/fuzz/heap-probe.ts`), never into a served one. On SIGUSR2 it runs full collections and
 * writes one line to stderr: `{"event":"heap_probe","seq":N,"heapUsed":…,"external":…,"rss":…}`.
 *
 * Why: RSS alone cannot tell a leak from the allocator keeping pages it once needed (the fuzz
 * run's huge bodies leave glibc arenas and V8's old space grown for minutes, and RSS after a
 * settle wandered ±10 MiB between runs). What survives a full GC is what the server still holds.
 */
const collect = (globalThis as { gc?: () => void }).gc;
let seq = 0;

process.on('SIGUSR2', () => {
  seq += 1;
  // Twice: the first pass can leave objects whose finalizers free more on the second.
  collect?.();
  collect?.();
  const usage = process.memoryUsage();
  process.stderr.write(
    `${JSON.stringify({
      event: 'heap_probe',
      seq,
      collected: collect !== undefined,
      heapUsed: usage.heapUsed,
      external: usage.external,
      rss: usage.rss,
    })}\n`,
  );
});

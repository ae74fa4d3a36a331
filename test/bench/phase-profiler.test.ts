import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profilePhase } from '../../bench/tasks/phase-profiler.js';

interface HeapNode {
  callFrame: { functionName: string };
  selfSize: number;
  children: HeapNode[];
}

/** Bytes a sampled allocation profile puts on functions of this name. */
function bytesIn(node: HeapNode, name: string): number {
  const own = node.callFrame.functionName === name ? node.selfSize : 0;
  return own + node.children.reduce((sum, child) => sum + bytesIn(child, name), 0);
}

/** Allocates about 8 MB of short-lived arrays, none of which survives the call. */
function allocatePhaseGarbage(): number {
  let kept = 0;
  for (let i = 0; i < 2000; i++) kept += new Array(512).fill(i).length;
  return kept;
}

describe('bench phase profiler (BENCH_TASKS_CPU_PROF, BENCH_TASKS_HEAP_PROF)', () => {
  const saved = { cpu: process.env.BENCH_TASKS_CPU_PROF, heap: process.env.BENCH_TASKS_HEAP_PROF };
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'phase-profiler-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const [name, value] of [
      ['BENCH_TASKS_CPU_PROF', saved.cpu],
      ['BENCH_TASKS_HEAP_PROF', saved.heap],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('counts what the phase allocated and the collector already took, not only what is alive at the end', async () => {
    delete process.env.BENCH_TASKS_CPU_PROF;
    process.env.BENCH_TASKS_HEAP_PROF = join(dir, 'heap');
    await profilePhase('garbage', async () => {
      allocatePhaseGarbage();
      // Let a scavenge or two run before the profile stops, so nothing it allocated is alive.
      await new Promise((resolve) => setTimeout(resolve, 20));
      allocatePhaseGarbage();
    });
    expect(readdirSync(join(dir, 'heap'))).to.deep.equal(['garbage.heapprofile']);
    const profile = JSON.parse(readFileSync(join(dir, 'heap', 'garbage.heapprofile'), 'utf8')) as { head: HeapNode };
    // About 16 MB went through the function; sampling every 4 KiB sees most of it.
    expect(bytesIn(profile.head, 'allocatePhaseGarbage')).to.be.greaterThan(4_000_000);
  });

  it('writes both profiles of a phase when both are asked for', async () => {
    process.env.BENCH_TASKS_CPU_PROF = join(dir, 'cpu');
    process.env.BENCH_TASKS_HEAP_PROF = join(dir, 'heap');
    expect(await profilePhase('both', async () => allocatePhaseGarbage())).to.equal(2000 * 512);
    const cpu = JSON.parse(readFileSync(join(dir, 'cpu', 'both.cpuprofile'), 'utf8')) as { nodes: unknown[] };
    expect(cpu.nodes.length).to.be.greaterThan(0);
    expect(readdirSync(join(dir, 'heap'))).to.deep.equal(['both.heapprofile']);
  });
});

/**
 * Turns a target's CPU profile (`BENCH_TARGET_NODE_ARGS='--cpu-prof --cpu-prof-dir=…'`) into the
 * tables of bench/report/profile.md: the functions with the most self time, and the time by library,
 * as µs per request (each one's share of the busy samples times the server CPU per request of the
 * same run). Samples before the first request (start-up: loading and compiling modules), idle and
 * `(program)` samples are left out, and so is an in-process profile's own stop; functions V8
 * inlined count in their caller.
 *
 *   node dist/bench/profile/summarize-profile.js <file.cpuprofile> <server µs per request> [top]
 */
import { readFileSync } from 'node:fs';
import { table } from '../report/markdown-table.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Where a request is first handled: Baton's endpoint, or the floor's handler. */
const REQUEST_HANDLER = /server\/http\/mcp-endpoint|floor-target/;

/** The index of the first sample taken inside a request handler (0 when none is). */
function firstRequestSample(profile: CpuProfile, byId: Map<number, ProfileNode>): number {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inHandler = new Map<number, boolean>();
  const handles = (id: number): boolean => {
    const known = inHandler.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const result = REQUEST_HANDLER.test(byId.get(id)!.callFrame.url) || (up !== undefined && handles(up));
    inHandler.set(id, result);
    return result;
  };
  const index = profile.samples.findIndex((id) => handles(id));
  return Math.max(0, index);
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives, as the tables group it. */
export function libraryOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'garbage collector';
  if (/^(writev|writevGeneric|writeGeneric|writeUtf8String|writeBuffer|writeLatin1String)$/.test(name)) {
    return 'socket write';
  }
  if (name === 'runMicrotasks') return 'node other (promises, timers, events, crypto, abort)';
  const path = url.replace(/^file:\/\//, '');
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
  if (module === 'xstate') return 'xstate';
  if (module === 'bullmq' || module === 'msgpackr') return 'bullmq';
  if (module === 'superjson') return 'superjson';
  if (module && /^(ioredis|redis-parser|redis-errors|denque|cluster-key-slot|standard-as-callback)$/.test(module)) {
    return 'ioredis';
  }
  if (path.includes('internal/deps/undici')) return 'fetch (the bench client)';
  if (module === 'tweetnacl') return 'tweetnacl';
  if (module === 'ajv') return 'ajv';
  if (
    module &&
    /^(koa|@koa\/|on-finished|ee-first|delegates|koa-compose|statuses|http-errors|vary|content-type|type-is|accepts|depd|encodeurl|escape-html)/.test(
      module,
    )
  ) {
    return 'koa and its helpers';
  }
  if (path.includes('/server/engine/state/')) return 'server/engine/state';
  if (path.includes('/server/engine/tasks/')) return 'server/engine/tasks';
  if (path.includes('/server/engine/')) return 'server/engine (flow, catalogue, authoring)';
  if (path.includes('/server/http/')) return 'server/http';
  if (path.includes('/server/protocol/')) return 'server/protocol';
  if (path.includes('/bench/tasks/')) return 'bench (the task load)';
  if (path.includes('/bench/')) return 'bench tools (the machines)';
  if (/^node:(_http|internal\/streams|internal\/stream_base|net|stream)/.test(path)) return 'node http and streams';
  if (path.startsWith('node:')) return 'node other (promises, timers, events, crypto, abort)';
  return 'other';
}

function where(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (module) return module[1] === 'xstate' ? 'xstate' : `${module[1]}/${module[2]!.split('/').pop()}`;
  const own = /\/(server|bench)\/(.*)$/.exec(path);
  if (own) return `${own[1]}/${own[2]}`;
  return path.replace(/^node:/, '');
}

export interface ProfileSummary {
  top: Array<{ name: string; where: string; micros: number; share: number }>;
  byLibrary: Array<{ library: string; micros: number; share: number }>;
}

export function summarizeProfile(profile: CpuProfile, microsPerRequest: number, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map<number, number>();
  const from = firstRequestSample(profile, byId);
  profile.samples.forEach((id, index) => {
    if (index >= from) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const byFunction = new Map<string, { name: string; where: string; time: number }>();
  const byLibrary = new Map<string, number>();
  let busy = 0;
  for (const [id, time] of selfTime) {
    const { functionName, url } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    // An in-process profile's own `Profiler.stop` (bench/tasks/phase-profiler.ts): after the
    // measured window, one sample with the whole wait as its time.
    if (functionName === 'dispatch' && !url) continue;
    busy += time;
    const name = functionName || '(anonymous)';
    const key = `${name}\u0000${url}`;
    const entry = byFunction.get(key) ?? { name, where: where(url), time: 0 };
    entry.time += time;
    byFunction.set(key, entry);
    const library = libraryOf(url, name);
    byLibrary.set(library, (byLibrary.get(library) ?? 0) + time);
  }
  const micros = (time: number) => (time / busy) * microsPerRequest;
  return {
    top: [...byFunction.values()]
      .sort((a, b) => b.time - a.time)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, micros: micros(f.time), share: f.time / busy })),
    byLibrary: [...byLibrary]
      .sort((a, b) => b[1] - a[1])
      .map(([library, time]) => ({ library, micros: micros(time), share: time / busy })),
  };
}

export function profileTables(summary: ProfileSummary): string {
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  const topTable = table(
    ['function', 'where', 'µs/request', 'share'],
    summary.top.map((f) => [`\`${f.name}\``, f.where, f.micros.toFixed(1), percent(f.share)]),
  );
  const libraryTable = table(
    ['where', 'µs/request', 'share'],
    summary.byLibrary.map((l) => [l.library, l.micros.toFixed(1), percent(l.share)]),
  );
  return `${topTable}\n\n${libraryTable}\n`;
}

const invokedAs = process.argv[1] ?? '';
if (invokedAs.endsWith('summarize-profile.js') || invokedAs.endsWith('summarize-profile.ts')) {
  const [file, perRequest, top] = process.argv.slice(2);
  if (!file || !perRequest) {
    process.stderr.write('usage: summarize-profile <file.cpuprofile> <server µs per request> [top]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(profileTables(summarizeProfile(profile, Number(perRequest), Number(top ?? 15))));
}

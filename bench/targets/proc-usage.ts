/**
 * A process's CPU time and resident memory read from outside it, from Linux's /proc: the one
 * measure the bench can take the same way of a Node and a Python target. The kernel reports the
 * CPU time in clock ticks (`getconf CLK_TCK`, 100 a second on Linux): over a 5 s window of a busy
 * server that is ±0.4% at worst. It is the same count `process.cpuUsage()` reads through
 * getrusage(2) (every thread of the process, user and system), read without asking the process.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Usage } from './target-protocol.js';

/**
 * utime and stime (fields 14 and 15 of /proc/<pid>/stat) in µs. The second field, the command
 * name, is in parentheses and may itself hold spaces and parentheses, so fields are counted from
 * the last ')'.
 */
export function parseProcStat(text: string, ticksPerSecond: number): Usage['cpu'] {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  const ticks = (index: number) => {
    const value = Number(fields[index - 3]);
    if (!Number.isFinite(value)) throw new Error(`unreadable /proc stat: ${text.slice(0, 120)}`);
    return value;
  };
  const micros = 1e6 / ticksPerSecond;
  return { user: ticks(14) * micros, system: ticks(15) * micros };
}

/** Resident memory in bytes from /proc/<pid>/statm (its second field, in pages). */
export function parseProcStatm(text: string, pageSize: number): number {
  return Number(text.trim().split(/\s+/)[1]) * pageSize;
}

let system: { ticksPerSecond: number; pageSize: number } | undefined;

function systemValues(): { ticksPerSecond: number; pageSize: number } {
  if (!system) {
    const value = (name: string, fallback: number) => {
      try {
        const read = Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim());
        return Number.isFinite(read) && read > 0 ? read : fallback;
      } catch {
        return fallback;
      }
    };
    system = { ticksPerSecond: value('CLK_TCK', 100), pageSize: value('PAGESIZE', 4096) };
  }
  return system;
}

/** Whether this machine has /proc to read a process's usage from. */
export function hasProcUsage(): boolean {
  try {
    readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    return true;
  } catch {
    return false;
  }
}

/** The CPU time and RSS of process `pid`, read from /proc (throws when it is gone). */
export function procUsage(pid: number): Pick<Usage, 'cpu' | 'rss'> {
  const { ticksPerSecond, pageSize } = systemValues();
  return {
    cpu: parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'), ticksPerSecond),
    rss: parseProcStatm(readFileSync(`/proc/${pid}/statm`, 'utf8'), pageSize),
  };
}

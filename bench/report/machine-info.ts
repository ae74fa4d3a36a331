/** What the report says about the machine and the code it measured. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cpus: number;
  memoryGiB: number;
  os: string;
  node: string;
  commit: string;
  /** 1-minute load average when the bench started and ended (other work on the machine). */
  loadAtStart: number;
  loadAtEnd?: number;
  pinning: string;
  date: string;
  /** The Python the Python targets ran on (e.g. "Python 3.11.7"), when they ran. */
  python?: string;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function machineInfo(pinning: string): MachineInfo {
  const cpus = os.cpus();
  const commit = git(['rev-parse', '--short', 'HEAD']) || 'unknown';
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : '';
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpus: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    commit: `${commit}${dirty}`,
    loadAtStart: os.loadavg()[0]!,
    pinning,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

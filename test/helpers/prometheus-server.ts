/**
 * Starts a throwaway Prometheus (Debian's `prometheus` package) on 127.0.0.1 with a temporary
 * config and data directory, scraping the given targets every second, and stops it by PID.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './spawn-baton.js';

export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>`: its HTTP API is under /api/v1. */
  url: string;
  pid: number;
  /** Runs an instant PromQL query; resolves the result vector. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  stop(): Promise<void>;
}

export function prometheusAvailable(): boolean {
  return spawnSync('prometheus', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** The scrape config `docs/observability.md` shows, with a one-second interval for the test. */
export function scrapeConfig(targets: string[]): string {
  return [
    'global:',
    '  scrape_interval: 1s',
    'scrape_configs:',
    '  - job_name: baton',
    '    metrics_path: /metrics',
    '    static_configs:',
    `      - targets: [${targets.map((target) => `'${target}'`).join(', ')}]`,
    '',
  ].join('\n');
}

export async function startPrometheus(targets: string[]): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, scrapeConfig(targets));
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8192)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus did not become ready on port ${port}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await response.json()) as { status: string; data: { result: any[] }; error?: string };
      if (body.status !== 'success') throw new Error(`query ${promql} failed: ${body.error}`);
      return body.data.result;
    },
    stop,
  };
}

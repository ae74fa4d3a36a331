/**
 * A run's raw results as JSON (`.artifacts/bench-results.json` by default), so the report can be
 * written again from them (`npm run bench -- --from <file>`) without measuring again.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BenchOptions } from './bench-options.js';
import { flowByLabel, type FlowLabel } from './flows/bench-flows.js';
import type { BenchReport } from './report/markdown-report.js';
import { combinations } from './report/summary.js';

const FORMAT = 1;

interface SavedRun extends Omit<BenchReport, 'options' | 'combinations'> {
  format: typeof FORMAT;
  options: Omit<BenchOptions, 'flows'> & { flows: FlowLabel[] };
}

export function saveRun(file: string, report: BenchReport): void {
  const { combinations: _derived, options, ...rest } = report;
  const saved: SavedRun = {
    format: FORMAT,
    ...rest,
    options: { ...options, flows: options.flows.map((f) => f.label) },
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(saved, null, 1)}\n`);
}

export function loadRun(file: string): BenchReport {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedRun;
  if (saved.format !== FORMAT) throw new Error(`${file} is not a bench result of format ${FORMAT}.`);
  const { format: _format, options, ...rest } = saved;
  return {
    ...rest,
    options: { ...options, flows: options.flows.map(flowByLabel) },
    combinations: combinations(saved.records),
  };
}

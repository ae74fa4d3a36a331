/**
 * Per-scenario results from the suite's `-o` directory. The suite writes one folder per scenario,
 * `server-<scenario>-<ISO time with ':' and '.' as '-'>/checks.json`, an array of checks with a
 * `status` of SUCCESS, FAILURE, WARNING, SKIPPED or INFO. A scenario passes when none of its
 * checks is a FAILURE (the suite's own rule; WARNING never fails) and at least one is a SUCCESS:
 * a scored scenario that checked nothing (only SKIPPED, INFO or WARNING, or no checks at all)
 * proves nothing, and counts as failed (`no-success`). A scenario that threw leaves a folder
 * without `checks.json`, and one that never ran leaves no folder: both count as failed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ScenarioOutcome = 'passed' | 'failed' | 'no-success' | 'no-checks' | 'not-run';

export interface ScenarioResult {
  name: string;
  outcome: ScenarioOutcome;
  /** Check counts by status (SUCCESS, FAILURE, WARNING, ...). */
  counts: Record<string, number>;
  /** Ids of the FAILURE checks, in order, without repeats. */
  failedChecks: string[];
  /** Why the result could not be read, for `no-checks`. */
  problem?: string;
}

export function isPassed(result: ScenarioResult): boolean {
  return result.outcome === 'passed';
}

interface Check {
  id?: unknown;
  status?: unknown;
}

const FOLDER = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;

/** Scenario name -> its newest result folder in `resultsDir`. */
function resultFolders(resultsDir: string): Map<string, string> {
  const newest = new Map<string, { folder: string; stamp: string }>();
  if (!existsSync(resultsDir)) return new Map();
  for (const entry of readdirSync(resultsDir, { withFileTypes: true })) {
    const match = entry.isDirectory() ? FOLDER.exec(entry.name) : null;
    if (!match) continue;
    const [, name, stamp] = match as unknown as [string, string, string];
    const seen = newest.get(name);
    if (!seen || seen.stamp < stamp) newest.set(name, { folder: join(resultsDir, entry.name), stamp });
  }
  return new Map([...newest].map(([name, { folder }]) => [name, folder]));
}

function readScenario(name: string, folder: string | undefined): ScenarioResult {
  const empty = { name, counts: {}, failedChecks: [] };
  if (!folder) return { ...empty, outcome: 'not-run' };
  const file = join(folder, 'checks.json');
  if (!existsSync(file)) return { ...empty, outcome: 'no-checks', problem: 'the scenario wrote no checks.json' };
  let checks: unknown;
  try {
    checks = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { ...empty, outcome: 'no-checks', problem: `checks.json is not JSON (${(error as Error).message})` };
  }
  if (!Array.isArray(checks)) return { ...empty, outcome: 'no-checks', problem: 'checks.json is not an array' };
  const counts: Record<string, number> = {};
  const failedChecks: string[] = [];
  for (const check of checks as Check[]) {
    const status = typeof check?.status === 'string' ? check.status : 'UNKNOWN';
    counts[status] = (counts[status] ?? 0) + 1;
    const id = typeof check?.id === 'string' ? check.id : '(no id)';
    if (status === 'FAILURE' && !failedChecks.includes(id)) failedChecks.push(id);
  }
  const outcome = failedChecks.length > 0 ? 'failed' : (counts.SUCCESS ?? 0) > 0 ? 'passed' : 'no-success';
  return { name, outcome, counts, failedChecks };
}

/** One result per name in `names`, in that order. */
export function readScenarioResults(resultsDir: string, names: string[]): ScenarioResult[] {
  const folders = resultFolders(resultsDir);
  return names.map((name) => readScenario(name, folders.get(name)));
}

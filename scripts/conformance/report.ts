/**
 * What the conformance script prints: a table of scenario results and the one-line summaries.
 * The final line `conformance: N passed, N failed` counts scenarios, not checks, so it is never
 * confused with the suite's own `Total:` line (which counts checks across scored and unscored
 * scenarios alike).
 */
import { isPassed, type ScenarioResult } from './scenario-results.js';

const SHOWN_FAILED_CHECKS = 3;

function countsText(counts: Record<string, number>): string {
  const parts = [`${counts.SUCCESS ?? 0} ok`];
  if (counts.FAILURE) parts.push(`${counts.FAILURE} failed`);
  if (counts.WARNING) parts.push(`${counts.WARNING} warning${counts.WARNING === 1 ? '' : 's'}`);
  return parts.join(', ');
}

function detail(result: ScenarioResult): string {
  switch (result.outcome) {
    case 'passed':
      return countsText(result.counts);
    case 'failed': {
      const shown = result.failedChecks.slice(0, SHOWN_FAILED_CHECKS).join(', ');
      const more = result.failedChecks.length - SHOWN_FAILED_CHECKS;
      return `${countsText(result.counts)}: ${shown}${more > 0 ? ` (+${more} more)` : ''}`;
    }
    case 'no-success':
      return `${countsText(result.counts)}: no check succeeded, so it proves nothing`;
    case 'no-checks':
      return `${result.problem ?? 'no checks'} (see the log)`;
    case 'not-run':
      return 'did not run (no result folder)';
  }
}

/** One row per scenario: PASS/FAIL, the name, and the check counts or what went wrong. */
export function formatTable(results: ScenarioResult[]): string {
  const width = Math.max(...results.map((result) => result.name.length));
  return results
    .map((result) => `  ${isPassed(result) ? 'PASS' : 'FAIL'}  ${result.name.padEnd(width)}  ${detail(result)}`)
    .join('\n');
}

/** `<label>: N passed, N failed`, counting scenarios. */
export function summaryLine(label: string, results: ScenarioResult[]): string {
  const passed = results.filter(isPassed).length;
  return `${label}: ${passed} passed, ${results.length - passed} failed`;
}

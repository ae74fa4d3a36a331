/**
 * How `npm run conformance` reads a scenario's checks: a scored scenario passes only with no
 * FAILURE and at least one SUCCESS; one that checked nothing proves nothing and counts as failed.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPassed, readScenarioResults } from '../../scripts/conformance/index.js';
import { summaryLine } from '../../scripts/conformance/report.js';

describe('conformance scenario results', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-conformance-results-'));
    const write = (name: string, checks: unknown[]) => {
      const folder = join(dir, `server-${name}-2026-12-01T12-00-00-000Z`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'checks.json'), JSON.stringify(checks));
    };
    write('ok', [
      { id: 'a', status: 'SUCCESS' },
      { id: 'b', status: 'WARNING' },
    ]);
    write('broken', [
      { id: 'a', status: 'SUCCESS' },
      { id: 'b', status: 'FAILURE' },
    ]);
    write('skipped-only', [{ id: 'a', status: 'SKIPPED' }]);
    write('info-and-warnings', [
      { id: 'a', status: 'INFO' },
      { id: 'b', status: 'WARNING' },
    ]);
    write('empty', []);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes a scenario only with a successful check and no failure; one that checked nothing fails', () => {
    const names = ['ok', 'broken', 'skipped-only', 'info-and-warnings', 'empty', 'never-ran'];
    const results = readScenarioResults(dir, names);
    expect(results.map((r) => [r.name, r.outcome])).to.deep.equal([
      ['ok', 'passed'],
      ['broken', 'failed'],
      ['skipped-only', 'no-success'],
      ['info-and-warnings', 'no-success'],
      ['empty', 'no-success'],
      ['never-ran', 'not-run'],
    ]);
    expect(results.filter(isPassed).map((r) => r.name)).to.deep.equal(['ok']);
    expect(summaryLine('conformance', results)).to.equal('conformance: 1 passed, 5 failed');
  });
});

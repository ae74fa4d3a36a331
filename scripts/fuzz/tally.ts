/** Counts what the fuzz run sent and saw, per category, and prints the summary. */
import type { Attack, Finding, Verdict } from './attack.js';

interface CategoryTally {
  name: string;
  requests: number;
  statuses: Map<string, number>;
  findings: Finding[];
  internalErrors: Map<string, number>;
  ms: number;
}

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

const MAX_SHOWN = 8;

export class Tally {
  readonly categories: CategoryTally[] = [];
  readonly checks: Check[] = [];
  honestRequests = 0;
  #current: CategoryTally | undefined;

  begin(name: string): void {
    this.#current = { name, requests: 0, statuses: new Map(), findings: [], internalErrors: new Map(), ms: 0 };
    this.categories.push(this.#current);
  }

  /**
   * Closes the current category and records its check: passed when it sent something and nothing
   * was found. A category that sent nothing tested nothing, and fails.
   */
  end(ms: number, extra: Finding[] = []): Check {
    const category = this.#current!;
    category.ms = ms;
    category.findings.push(...extra);
    if (category.requests === 0) {
      category.findings.push({ kind: 'empty', label: category.name, detail: 'no request was sent', request: '-' });
    }
    const kinds = [...new Set(category.findings.map((f) => f.kind))];
    const check = {
      name: category.name,
      passed: category.findings.length === 0,
      detail: `${category.requests} requests in ${(ms / 1000).toFixed(1)} s${kinds.length ? `; ${kinds.join(', ')}` : ''}`,
    };
    this.checks.push(check);
    this.#current = undefined;
    return check;
  }

  record(attack: Attack, verdict: Verdict): void {
    const category = this.#current;
    if (!category) return;
    category.requests += 1;
    category.statuses.set(verdict.status, (category.statuses.get(verdict.status) ?? 0) + 1);
    category.findings.push(...verdict.findings);
    if (verdict.internalError) {
      category.internalErrors.set(attack.label, (category.internalErrors.get(attack.label) ?? 0) + 1);
    }
  }

  check(name: string, passed: boolean, detail: string): void {
    this.checks.push({ name, passed, detail });
  }

  get attackRequests(): number {
    return this.categories.reduce((sum, c) => sum + c.requests, 0);
  }

  print(say: (line: string) => void): void {
    const histogram = new Map<string, number>();
    say('');
    say('category                     requests   time  statuses');
    for (const c of this.categories) {
      for (const [status, n] of c.statuses) histogram.set(status, (histogram.get(status) ?? 0) + n);
      const statuses = [...c.statuses].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}×${n}`);
      say(
        `${c.name.padEnd(28)} ${String(c.requests).padStart(8)} ${(c.ms / 1000).toFixed(1).padStart(5)}s  ${statuses.join(' ')}`,
      );
    }
    const total = [...histogram].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}×${n}`);
    say(`${'all attacks'.padEnd(28)} ${String(this.attackRequests).padStart(8)}         ${total.join(' ')}`);
    say(`honest set-up and check requests: ${this.honestRequests}`);

    const findings = this.categories.flatMap((c) => c.findings.map((f) => ({ ...f, category: c.name })));
    if (findings.length > 0) {
      say('');
      say(`findings (${findings.length}):`);
      for (const f of findings.slice(0, MAX_SHOWN * 3)) {
        say(`  [${f.category}] ${f.kind}: ${f.label}`);
        say(`      answer: ${f.detail.slice(0, 300)}`);
        say(`      request: ${f.request}`);
      }
      if (findings.length > MAX_SHOWN * 3) say(`  … and ${findings.length - MAX_SHOWN * 3} more`);
    }
    const internal = this.categories.flatMap((c) =>
      [...c.internalErrors].map(([label, n]) => `[${c.name}] ${label} ×${n}`),
    );
    if (internal.length > 0) {
      say('');
      say(`JSON-RPC -32603 Internal error answers (HTTP 200; a server-side bug by the catalogue's definition):`);
      for (const line of internal.slice(0, MAX_SHOWN * 2)) say(`  ${line}`);
      if (internal.length > MAX_SHOWN * 2) say(`  … and ${internal.length - MAX_SHOWN * 2} more kinds`);
    }
    say('');
    for (const check of this.checks) say(`${check.passed ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
  }
}

/**
 * What a CI run prints above its closing line when something failed: CI shows only the tail of
 * the run, so the failed tests and checks must be named there (.ci/what-failed, and the mocha
 * reporter's `tests: FAILED` lines it reads).
 */
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the failures CI names above its closing line', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-ci-what-failed-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const whatFailed = (...logs: string[]) =>
    execFileSync('bash', [join(ROOT, '.ci', 'what-failed'), ...logs], { encoding: 'utf8' });

  it('names each failed test, fuzz check, bench combination and conformance scenario', () => {
    const log = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const tests = log('test.log', '  ✔ passes\n\ntests: FAILED outer fails here: boom\n\ntests: 1 passed, 1 failed\n');
    const fuzz = log(
      'fuzz.log',
      'fuzz: ok   honest flow: fine\nfuzz: FAIL heap: grew 40 MB\nfuzz: 1 passed, 1 failed\n',
    );
    const bench = log(
      'bench.log',
      'bench: baton      one-question   c=16  rep 1  FAILED: no result\nbench: FAILED Baton × parallel: 3 errors\n',
    );
    const conformance = log('conformance.log', '  PASS  tools-list   2 ok\n  FAIL  tools-call   0 ok: no check\n');
    expect(whatFailed(tests, fuzz, bench, conformance).trimEnd().split('\n')).to.deep.equal([
      'ci:   tests: FAILED outer fails here: boom',
      'ci:   fuzz: FAIL heap: grew 40 MB',
      'ci:   bench: baton      one-question   c=16  rep 1  FAILED: no result',
      'ci:   bench: FAILED Baton × parallel: 3 errors',
      'ci:     FAIL  tools-call   0 ok: no check',
    ]);
  });

  it('prints at most 20 lines, nothing for logs that are missing, and a log named twice once', () => {
    const many = join(dir, 'many.log');
    writeFileSync(many, Array.from({ length: 30 }, (_, i) => `tests: FAILED test ${i}: boom`).join('\n'));
    expect(whatFailed(many).trimEnd().split('\n')).to.have.length(20);
    expect(whatFailed(join(dir, 'absent.log'))).to.equal('');
    const once = join(dir, 'once.log');
    writeFileSync(once, 'tests: FAILED a test: boom\n');
    expect(whatFailed(once, once)).to.equal('ci:   tests: FAILED a test: boom\n');
    expect(whatFailed()).to.equal('');
  });

  it("gets its test lines from mocha's reporter: one per failed test, with the message's first line", () => {
    const spec = join(dir, 'fixture.test.ts');
    writeFileSync(
      spec,
      "describe('outer', () => {\n  it('fails here', () => { throw new Error('boom\\nsecond line'); });\n  it('passes', () => {});\n});\n",
    );
    const run = spawnSync('npx', ['mocha', '--config', join(ROOT, '.mocharc.json'), spec], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(-3)).to.deep.equal(['tests: FAILED outer fails here: boom', '', 'tests: 1 passed, 1 failed']);
  });
});

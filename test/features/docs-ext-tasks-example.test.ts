/**
 * The example in docs/clients.md ("Tasks from your own client") exactly as written: typechecked
 * strictly, then run as a separate process against a real Baton serving ship-release. Only its
 * URL is changed, to this server's.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCUMENTED_URL = 'http://127.0.0.1:3000/mcp';

/** The fenced block right after the marker comment that names this test. */
export function documentedExample(markdown: string): string {
  const marker = markdown.indexOf('test/features/docs-ext-tasks-example.test.ts');
  if (marker < 0) throw new Error('docs/clients.md lost the marker of its tested example');
  const start = markdown.indexOf('```ts\n', marker);
  const end = markdown.indexOf('\n```', start + 6);
  return markdown.slice(start + 6, end + 1);
}

describe('docs/clients.md: the ext-tasks example', function () {
  this.timeout(60_000);
  let server: RunningServer;
  // Inside the checkout, so the example's imports resolve to this repository's node_modules.
  const dir = mkdtempSync(join(ROOT, '.baton-docs-example-test-'));
  const file = join(dir, 'call-ship-release.ts');

  before(async () => {
    server = await startTestServer();
    const example = documentedExample(readFileSync(join(ROOT, 'docs/clients.md'), 'utf8'));
    expect(example).to.contain(DOCUMENTED_URL);
    writeFileSync(file, example.replace(DOCUMENTED_URL, server.url));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server?.baton.close();
    await server?.close();
  });

  it('typechecks under the strict settings of this repository', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {},
      },
    )!;
    const program = ts.createProgram([file], { ...config.options, noEmit: true, types: ['node'] });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).to.deep.equal([]);
  });

  it('runs ship-release to its end: approved, completed, the release printed', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: dir,
      timeout: 45_000,
    });
    expect(JSON.parse(stdout)).to.include({ shipped: true, service: 'billing', approvedBy: 'ada' });
    expect(stderr).to.match(/asked: billing-2\.5\.0\.tar\.gz is built/);
    expect(stderr).to.match(/^completed: Completed$/m);
  });
});

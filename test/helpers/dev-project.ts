/**
 * A project made of the scaffold's `greet` tool (what `baton new` writes), served by `baton dev`
 * in a child process: for the diagram editor's tests, which edit its file for real.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolSource } from '../../server/cli/scaffold-templates.js';
import { freePort } from './spawn-baton.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface DevProject {
  dir: string;
  /** The tool's source file, greet.ts. */
  file: string;
  /** Its text as the scaffold wrote it. */
  original: string;
  port: number;
  stderr(): string;
  stop(): void;
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startDevProject(): Promise<DevProject> {
  // Inside the checkout, so the tool's imports of xstate resolve through its node_modules.
  const dir = mkdtempSync(join(ROOT, '.baton-editor-test-'));
  const file = join(dir, 'greet.ts');
  const original = toolSource('greet', {
    authoring: join(ROOT, 'server/engine/authoring/index.ts'),
    testing: '',
    tool: '',
  });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', baton: { tools: 'index.ts' } }));
  writeFileSync(file, original);
  writeFileSync(join(dir, 'index.ts'), "import { greetTool } from './greet.ts';\nexport const tools = [greetTool];\n");
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bin/baton.js'), 'dev'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(() => stderr.includes('"listening"') || child.exitCode !== null, 'baton dev to listen');
    if (child.exitCode !== null) throw new Error(`baton dev exited ${child.exitCode}:\n${stderr}`);
  } catch (error) {
    stop();
    throw error;
  }
  return { dir, file, original, port, stderr: () => stderr, stop };
}

/**
 * The package as a user gets it, made once per test run and shared by the suites under
 * test/package/: `npm pack` (which builds it), and the tarball installed into a bare project in a
 * temporary folder outside the repository. The npm cache makes the installs quick after the
 * first run; the folder is removed when the process exits.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

const run = promisify(execFile);

export interface PackedInstall {
  /** The temporary folder everything lives in. */
  work: string;
  /** The packed package, e.g. `<work>/baton-mcp-0.1.0.tgz`. */
  tarball: string;
  /** A bare project with the tarball (and @types/node) installed. */
  userProject: string;
}

/** npm, quiet, offline-first, never fetching a browser (playwright-core is not ours, but safe). */
export async function npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return run('npm', [...args], {
    cwd,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', npm_config_fund: 'false', npm_config_audit: 'false' },
    maxBuffer: 16 * 1024 * 1024,
  });
}

let made: Promise<PackedInstall> | undefined;

export function packedInstall(): Promise<PackedInstall> {
  made ??= (async () => {
    const work = mkdtempSync(join(tmpdir(), 'baton-pack-'));
    process.once('exit', () => rmSync(work, { recursive: true, force: true }));
    await npm(['pack', '--silent', '--pack-destination', work], REPO);
    const tarball = join(
      work,
      readdirSync(work).find((name) => name.endsWith('.tgz'))!,
    );
    const userProject = join(work, 'user-project');
    mkdirSync(join(userProject, 'src'), { recursive: true });
    writeFileSync(
      join(userProject, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
    );
    const typesNode = `@types/node@${JSON.parse(readFileSync(join(REPO, 'node_modules', '@types', 'node', 'package.json'), 'utf8')).version}`;
    await npm(['install', '--silent', '--prefer-offline', tarball, typesNode], userProject);
    return { work, tarball, userProject };
  })();
  return made;
}

const projects = new Map<string, Promise<string>>();

/**
 * A project as an author's first command makes it, once per name and test run: the installed
 * tarball's `baton new --project <work>/<name>`, then `npm install` in it (the tarball, the rest
 * from the npm cache). Suites that change a project's files take a name of their own.
 */
export function packedProject(name: string): Promise<string> {
  let made = projects.get(name);
  if (!made) {
    made = (async () => {
      const { work, userProject } = await packedInstall();
      const project = join(work, name);
      await npm(['exec', '--no', '--', 'baton', 'new', '--project', project], userProject);
      await npm(['install', '--silent', '--prefer-offline'], project);
      return project;
    })();
    projects.set(name, made);
  }
  return made;
}

/**
 * The diagram editor's parser, made into one file that ships in the package:
 * `dist/server/cli/editor/statechart-parser/index.cjs` (beside the editor that loads it), Stately's `@xstate/machine-extractor` with everything it
 * runs on (babel, recast, and the XState v4 it was built against) bundled in, and beside it the
 * licences of every package bundled.
 *
 * One file rather than a bundled dependency: the parser's XState v4 then exists only inside that
 * file, never as an `xstate` a project's `import 'xstate'` could resolve to, and nothing of it is
 * installed or resolved when a project installs baton-mcp (docs/drawing.md, "The packaged
 * editor"). Run by `npm run build` (so by `npm pack`) after tsc.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(REPO, 'dist', 'server', 'cli', 'editor', 'statechart-parser');

/** The folder of the package a bundled input file belongs to (`…/node_modules/@babel/types`). */
function packageDir(input: string): string | undefined {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

function licenceText(dir: string): string {
  const file = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { license?: string };
  if (file) return readFileSync(join(dir, file), 'utf8').trim();
  return `(no licence file in the package; package.json says: ${manifest.license ?? 'nothing'})`;
}

const result = await build({
  absWorkingDir: REPO,
  entryPoints: ['tools/statechart-parser/index.cjs'],
  outfile: join(OUT, 'index.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  banner: {
    js: "// Stately's @xstate/machine-extractor and what it runs on, bundled by baton-mcp's build (scripts/build/statechart-parser.ts). Licences: LICENSES.txt.",
  },
});

const packages = new Map<string, string>();
for (const input of Object.keys(result.metafile.inputs)) {
  const dir = packageDir(input);
  if (!dir) continue;
  const absolute = join(REPO, dir);
  const { name, version } = JSON.parse(readFileSync(join(absolute, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  packages.set(`${name}@${version}`, absolute);
}
mkdirSync(dirname(join(OUT, 'LICENSES.txt')), { recursive: true });
writeFileSync(
  join(OUT, 'LICENSES.txt'),
  [...packages]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, dir]) => `${id}\n${'-'.repeat(id.length)}\n${licenceText(dir)}\n`)
    .join('\n'),
);

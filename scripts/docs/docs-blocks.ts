/**
 * The TypeScript blocks of README.md and docs/*.md, and where each is checked (issue 40, item 7):
 *
 * - a whole module (```ts, or ```ts file=tools/greet.ts to name its path so another block can
 *   import it) is compiled in examples/ by test/docs/docs-code-blocks.test.ts;
 * - an excerpt (a few states of a machine) is not written in the page at all but copied from a
 *   compiled file: ```ts region=machines/examples/release.ts#confirm-question shows the lines
 *   between `// #region confirm-question` and `// #endregion` of that file, and
 *   `region=<file>#a,b` shows two regions with `// …` between them. `syncedPages()` is what the
 *   pages should read; `npm run docs:examples` writes it, and the test fails while any differs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { regionsOf } from './api-examples.js';
import { REPO } from './author-api.js';

export const EXAMPLES = `${REPO}examples/`;

export interface CodeBlock {
  page: string;
  /** `docs/testing.md:96`, the line of its opening fence. */
  where: string;
  /** `machines/examples/release.ts#confirm-question`: the block is a copy of that region. */
  region?: string;
  /** Where a whole-module block is compiled: an absolute path in examples/. */
  path: string;
  /** Its text, without the fence's indentation. */
  text: string;
  indent: string;
  /** Offsets of the body (between the fences) in the page. */
  start: number;
  end: number;
}

const FENCE = /^([ \t]*)```(?:ts|typescript)\b([^\n]*)\n([\s\S]*?)^\1```/gm;

/** README.md and every page of docs/, relative to the repository. */
export function docPages(): string[] {
  const docs = readdirSync(`${REPO}docs`).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.sort().map((name) => `docs/${name}`)];
}

export function codeBlocks(page: string, text = readFileSync(`${REPO}${page}`, 'utf8')): CodeBlock[] {
  const stem = page
    .replace(/^docs\//, '')
    .replace(/\.md$/, '')
    .toLowerCase();
  const blocks: CodeBlock[] = [];
  for (const match of text.matchAll(FENCE)) {
    const [whole, indent, info, body] = match as unknown as [string, string, string, string];
    const line = text.slice(0, match.index).split('\n').length;
    const file = /\bfile=(\S+)/.exec(info)?.[1];
    const region = /\bregion=(\S+)/.exec(info)?.[1];
    const start = match.index + whole.indexOf('\n') + 1;
    blocks.push({
      page,
      where: `${page}:${line}`,
      ...(region ? { region } : {}),
      path: `${EXAMPLES}${file ?? `${stem}-${line}.ts`}`,
      text: body.replace(new RegExp(`^${indent}`, 'gm'), ''),
      indent,
      start,
      end: start + body.length,
    });
  }
  return blocks;
}

/** The text a `region=` block shows: its regions of the file, `// …` between two. */
export function regionText(reference: string): string {
  const [file, names] = reference.split('#') as [string, string | undefined];
  if (!names) throw new Error(`region=${reference}: name the region after "#"`);
  const regions = regionsOf(file, readFileSync(`${REPO}${file}`, 'utf8'));
  return names
    .split(',')
    .map((name) => {
      const region = regions.find((candidate) => candidate.name === name);
      if (!region) throw new Error(`region=${reference}: ${file} has no "// #region ${name}"`);
      return region.text.replace(/\n+$/, '');
    })
    .join('\n// …\n');
}

/** Each page holding a region block, as it should read (whether or not it already does). */
export function syncedPages(pages = docPages()): Map<string, string> {
  const synced = new Map<string, string>();
  for (const page of pages) {
    let text = readFileSync(`${REPO}${page}`, 'utf8');
    const regions = codeBlocks(page, text).filter((block) => block.region);
    if (regions.length === 0) continue;
    for (const block of regions.reverse()) {
      const body = `${regionText(block.region!)}\n`.replace(/^(?=.)/gm, block.indent);
      text = text.slice(0, block.start) + body + text.slice(block.end);
    }
    synced.set(page, text);
  }
  return synced;
}

/** The pages whose region blocks differ from their files, relative to the repository. */
export function stalePages(synced = syncedPages()): string[] {
  return [...synced].filter(([page, text]) => readFileSync(`${REPO}${page}`, 'utf8') !== text).map(([page]) => page);
}

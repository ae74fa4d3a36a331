/**
 * The committed docs (`docs/tools/*.md`): render them in memory, write them, or compare them with
 * what is on disk. CI regenerates and compares, so a machine change without `npx baton docs`
 * fails the build instead of leaving the docs wrong.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DocsSite, type DocsContent } from './docs-site.js';
import { markdownFileName, renderMarkdown } from './markdown-renderer.js';

/** Where the generated tool pages live, relative to the repository root. */
export const DOCS_TOOLS_DIR = 'docs/tools';

/** The public URL the committed docs assume (the default `npm start`), so the pages never depend on a port. */
export const DOCS_PUBLIC_URL = 'http://127.0.0.1:3000';

/** File name -> Markdown, for every page of the site. */
export async function renderDocsFiles(content: DocsContent): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const page of await new DocsSite(content).all()) files.set(markdownFileName(page.ref), renderMarkdown(page));
  return files;
}

export interface DocsDifference {
  file: string;
  problem: 'missing' | 'changed' | 'stale';
}

/** What differs between the rendered files and the folder (`stale`: a generated file no tool has any more). */
export async function compareDocsFiles(dir: string, files: Map<string, string>): Promise<DocsDifference[]> {
  const present = await listMarkdown(dir);
  const differences: DocsDifference[] = [];
  for (const [file, text] of files) {
    if (!present.includes(file)) differences.push({ file, problem: 'missing' });
    else if ((await readFile(join(dir, file), 'utf8')) !== text) differences.push({ file, problem: 'changed' });
  }
  for (const file of present) if (!files.has(file)) differences.push({ file, problem: 'stale' });
  return differences;
}

/** Writes every file and removes Markdown files no page produces any more. */
export async function writeDocsFiles(dir: string, files: Map<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const file of await listMarkdown(dir)) if (!files.has(file)) await rm(join(dir, file));
  for (const [file, text] of files) await writeFile(join(dir, file), text);
}

async function listMarkdown(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((file) => file.endsWith('.md')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

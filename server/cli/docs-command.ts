/**
 * `baton docs` (write or check docs/tools/*.md) and `baton diagram <name>` (print a machine's
 * Mermaid text). Both document what `baton serve` serves: the named tools (tools-module.ts), or
 * the example tools where none are named; with `--conformance` the conformance fixtures too.
 */
import { join, resolve } from 'node:path';
import {
  compareDocsFiles,
  DOCS_PUBLIC_URL,
  DOCS_TOOLS_DIR,
  documentedFlows,
  flowName,
  renderDocsFiles,
  runConversation,
  toSequenceDiagram,
  toStateDiagram,
  writeDocsFiles,
  type DocsContent,
} from '../docs-site/index.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { tools as userTools } from '../../machines/tools/index.js';
import { conformanceAsked } from './served-catalogue.js';
import { describeSource, examplesNotice, findToolsSource, loadToolsModule, type ToolsSource } from './tools-module.js';

/** What the committed docs describe: the example tools as `npm start` serves them. */
export function committedDocsContent(): DocsContent {
  return { tools: exampleTools({ publicUrl: DOCS_PUBLIC_URL, vault: createMemoryVault() }) };
}

/** What the named tools module holds, or where none is named the examples as committed here. */
async function contentOf(source: ToolsSource, conformance: boolean): Promise<DocsContent> {
  const examples = { publicUrl: DOCS_PUBLIC_URL, vault: createMemoryVault() };
  const content: DocsContent = source.module ? await loadToolsModule(source.module, examples) : committedDocsContent();
  if (!conformance) return content;
  const fixtures = conformanceFixtures();
  return {
    tools: [...content.tools, ...fixtures.tools],
    prompts: [...(content.prompts ?? []), ...fixtures.prompts],
    resources: [...(content.resources ?? []), ...fixtures.resources],
  };
}

export interface DocsCommandOptions {
  tools?: string;
  out?: string;
  check?: boolean;
  conformance?: boolean;
}

/** `baton docs [--check] [--out DIR] [--tools FILE] [--conformance]`; exit 1 when --check finds a difference. */
export async function docsCommand(options: DocsCommandOptions): Promise<number> {
  const source = findToolsSource(options.tools);
  const notice = examplesNotice(source);
  if (notice) process.stderr.write(`${notice}\n`);
  // The project's docs/tools/ (beside its package.json), never the installed package's.
  const dir = options.out ? resolve(options.out) : join(source.root, DOCS_TOOLS_DIR);
  const files = await renderDocsFiles(await contentOf(source, conformanceAsked(options.conformance)));
  if (!options.check) {
    await writeDocsFiles(dir, files);
    process.stdout.write(`Wrote ${files.size} pages to ${dir}\n`);
    return 0;
  }
  const differences = await compareDocsFiles(dir, files);
  for (const { file, problem } of differences) process.stderr.write(`${problem}: ${dir}/${file}\n`);
  if (differences.length > 0) {
    process.stderr.write('The docs are out of date: run `npx baton docs` and commit the result.\n');
    return 1;
  }
  process.stdout.write(`${dir} is up to date (${files.size} pages)\n`);
  return 0;
}

export interface DiagramCommandOptions {
  tools?: string;
  sequence?: boolean;
}

/**
 * `baton diagram <name> [--sequence]`: a tool's (prompt's, resource's) state diagram, or the
 * sequence of its example. Where no tools are named: the examples, machines/tools/ and the
 * conformance fixtures.
 */
export async function diagramCommand(options: DiagramCommandOptions, name: string | undefined): Promise<number> {
  const source = findToolsSource(options.tools);
  const fixtures = conformanceFixtures();
  const content: DocsContent = source.module
    ? await loadToolsModule(source.module, { publicUrl: DOCS_PUBLIC_URL, vault: createMemoryVault() })
    : {
        tools: [...committedDocsContent().tools, ...userTools, ...fixtures.tools],
        prompts: fixtures.prompts,
        resources: fixtures.resources,
      };
  const flows = documentedFlows(content);
  const flow = flows.find((f) => flowName(f) === name);
  if (!flow) {
    process.stderr.write(
      `${name ? `No tool, prompt or resource named "${name}" in ${describeSource(source)}.` : 'Name a tool.'} Known:\n  ${flows.map(flowName).join('\n  ')}\n`,
    );
    return 2;
  }
  process.stdout.write(
    options.sequence ? toSequenceDiagram(await runConversation(flow)) : toStateDiagram(flow.definition.machine),
  );
  return 0;
}

/**
 * `baton docs` (write or check docs/tools/*.md) and `baton diagram <name>` (print a machine's
 * Mermaid text). Both document what `baton serve` serves: the example tools, and with
 * `--conformance` the conformance fixtures (tools, prompts and resources) too.
 */
import { join } from 'node:path';
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
import { PACKAGE_ROOT } from '../package-root.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { tools as userTools } from '../../machines/tools/index.js';

const REPOSITORY_ROOT = PACKAGE_ROOT;

/** What the committed docs describe: the example tools as `npm start` serves them. */
export function committedDocsContent(): DocsContent {
  return { tools: exampleTools({ publicUrl: DOCS_PUBLIC_URL, vault: createMemoryVault() }) };
}

function contentFor(args: string[]): DocsContent {
  const content = committedDocsContent();
  if (!args.includes('--conformance')) return content;
  const fixtures = conformanceFixtures();
  return { tools: [...content.tools, ...fixtures.tools], prompts: fixtures.prompts, resources: fixtures.resources };
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

/** `baton docs [--check] [--out DIR] [--conformance]`; exit 1 when --check finds a difference. */
export async function docsCommand(args: string[]): Promise<number> {
  const dir = option(args, '--out') ?? join(REPOSITORY_ROOT, DOCS_TOOLS_DIR);
  const files = await renderDocsFiles(contentFor(args));
  if (!args.includes('--check')) {
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

/** `baton diagram <name> [--sequence]`: a tool's (prompt's, resource's) state diagram, or the sequence of its example. */
export async function diagramCommand(args: string[]): Promise<number> {
  const name = args.find((arg) => !arg.startsWith('--'));
  const fixtures = conformanceFixtures();
  const flows = documentedFlows({
    tools: [...committedDocsContent().tools, ...userTools, ...fixtures.tools],
    prompts: fixtures.prompts,
    resources: fixtures.resources,
  });
  const flow = flows.find((f) => flowName(f) === name);
  if (!flow) {
    process.stderr.write(
      `${name ? `No tool, prompt or resource named "${name}".` : 'Name a tool.'} Known:\n  ${flows.map(flowName).join('\n  ')}\n`,
    );
    return 2;
  }
  process.stdout.write(
    args.includes('--sequence')
      ? toSequenceDiagram(await runConversation(flow))
      : toStateDiagram(flow.definition.machine),
  );
  return 0;
}

/**
 * `baton export <tool> --json`: a tool's machine as XState JSON, for the Stately editor (its
 * "Import" takes it), questions included as data (machine-export.ts). Written to stdout, or to
 * `--out FILE`. A JSON machine the editor writes back is served as `collect-feedback.ts` serves
 * its `collect-feedback.machine.json`: the JSON imported, its names implemented in TypeScript.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { machineToJson } from '../engine/authoring/machine-export.js';
import type { ToolDefinition } from '../engine/index.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, servedTools } from '../../machines/index.js';
import { describeSource, findToolsSource, loadToolsModule } from './tools-module.js';

export interface ExportCommandOptions {
  tools?: string | undefined;
  json?: boolean | undefined;
  out?: string | undefined;
}

/** Where the examples' page URLs point in an export; nothing is served. */
const EXPORT_PUBLIC_URL = 'http://127.0.0.1:3000';

export async function exportCommand(options: ExportCommandOptions, name: string | undefined): Promise<number> {
  const source = findToolsSource(options.tools);
  const serving = { publicUrl: EXPORT_PUBLIC_URL, vault: createMemoryVault() };
  const tools: ToolDefinition[] = source.module
    ? (await loadToolsModule(source.module, serving)).tools
    : [...servedTools(serving), ...conformanceFixtures().tools];
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    process.stderr.write(
      `${name ? `No tool named "${name}" in ${describeSource(source)}.` : 'Name a tool.'} Known:\n  ${tools.map((t) => t.name).join('\n  ')}\n`,
    );
    return 2;
  }
  const json = `${JSON.stringify(machineToJson(tool.machine), null, 2)}\n`;
  if (options.out) writeFileSync(resolve(options.out), json);
  else process.stdout.write(json);
  return 0;
}

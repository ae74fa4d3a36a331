/**
 * What a `baton` command serves, whatever the transport: the tools the project names
 * (tools-module.ts), or where none are named Baton's examples and machines/tools/; plus the
 * conformance fixtures when asked for. `serve`, `stdio`, `dev` and `call` all take it from here,
 * so the transports cannot drift apart.
 */
import { conformanceFixtures, type Fixtures } from '../../machines/conformance/index.js';
import { servedTools, type ExampleToolOptions } from '../../machines/index.js';
import { loadToolsModule, type ToolsSource } from './tools-module.js';

const NO_FIXTURES: Fixtures = { tools: [], prompts: [], resources: [] };

/** Whether the conformance fixtures are asked for: `--conformance` or BATON_CONFORMANCE=1. */
export function conformanceAsked(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(flag) || env.BATON_CONFORMANCE === '1';
}

/** The examples (and machines/tools/), with the fixtures when asked for. */
export function examplesCatalogue(examples: ExampleToolOptions, conformance: boolean): Fixtures {
  // The conformance fixtures are test doubles: never served unless asked for.
  const fixtures = conformance ? conformanceFixtures() : NO_FIXTURES;
  return { ...fixtures, tools: [...servedTools(examples), ...fixtures.tools] };
}

/** The named tools module's catalogue, or the examples' where none is named. */
export async function servedCatalogue(
  source: ToolsSource,
  examples: ExampleToolOptions,
  conformance: boolean,
): Promise<Fixtures> {
  if (!source.module) return examplesCatalogue(examples, conformance);
  const own = await loadToolsModule(source.module, examples);
  const fixtures = conformance ? conformanceFixtures() : NO_FIXTURES;
  return {
    tools: [...own.tools, ...fixtures.tools],
    prompts: [...own.prompts, ...fixtures.prompts],
    resources: [...own.resources, ...fixtures.resources],
  };
}

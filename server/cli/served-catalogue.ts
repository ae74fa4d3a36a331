/**
 * What the `baton` command serves, whatever the transport: the example tools and yours
 * (machines/tools/), plus the conformance fixtures when asked for. `serve` and `stdio` both take it from here, so the two
 * transports cannot drift apart.
 */
import { conformanceFixtures, type Fixtures } from '../../machines/conformance/index.js';
import { servedTools, type ExampleToolOptions } from '../../machines/index.js';

export function servedCatalogue(
  args: string[],
  examples: ExampleToolOptions,
  env: NodeJS.ProcessEnv = process.env,
): Fixtures {
  // The conformance fixtures are test doubles: never served unless asked for.
  const fixtures =
    args.includes('--conformance') || env.BATON_CONFORMANCE === '1'
      ? conformanceFixtures()
      : { tools: [], prompts: [], resources: [] };
  return { ...fixtures, tools: [...servedTools(examples), ...fixtures.tools] };
}

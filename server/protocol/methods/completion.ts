/**
 * `completion/complete` (spec, server/utilities/completion): suggestions for a prompt argument or
 * a resource template variable, from the completions their definitions declare.
 */
import type { Completions, PromptRegistry, ResourceRegistry } from '../../engine/index.js';
import type { MethodSpec } from '../method-context.js';
import { isRecord } from '../../engine/index.js';
import { invalidParams } from '../protocol-error.js';

/** The spec caps one answer at 100 values. */
const MAX_VALUES = 100;

async function complete(source: Completions | undefined, value: string, context: Record<string, string>) {
  if (!source) return [];
  const all = typeof source === 'function' ? await source(value, context) : source.filter((v) => v.startsWith(value));
  return all;
}

export function completionMethod(prompts: PromptRegistry, resources: ResourceRegistry): MethodSpec {
  return {
    capability: 'completions',
    async handle({ params }) {
      const { ref, argument, context } = params as {
        ref?: { type?: string; name?: unknown; uri?: unknown };
        argument?: { name?: unknown; value?: unknown };
        context?: { arguments?: Record<string, string> };
      };
      if (!argument || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
        throw invalidParams('Invalid params: argument must have a name and a value');
      }
      const known = context?.arguments;
      if (
        known !== undefined &&
        (!isRecord(known) || !Object.values(known).every((value) => typeof value === 'string'))
      ) {
        throw invalidParams('Invalid params: context.arguments must map argument names to strings');
      }
      let source: Completions | undefined;
      if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
        const prompt = prompts.get(ref.name);
        if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}`);
        const declared = prompt.arguments?.find((a) => a.name === argument.name);
        if (!declared) throw invalidParams(`Prompt ${ref.name} has no argument ${argument.name}`);
        source = declared.completions;
      } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
        const template = resources.template(ref.uri);
        if (!template) throw invalidParams(`Unknown resource template: ${ref.uri}`);
        source = template.completions?.[argument.name];
      } else {
        throw invalidParams('Invalid params: ref must be a ref/prompt with a name or a ref/resource with a uri');
      }
      const values = await complete(source, argument.value, context?.arguments ?? {});
      return {
        completion: {
          values: values.slice(0, MAX_VALUES),
          total: values.length,
          hasMore: values.length > MAX_VALUES,
        },
      };
    },
  };
}

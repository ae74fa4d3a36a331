/**
 * `prompts/list` and `prompts/get` (spec, server/prompts). A prompt is a machine: its messages may
 * need input first, so prompts/get speaks MRTR like tools/call.
 */
import { toPromptResult, type FlowEngine, type PromptDefinition, type PromptRegistry } from '../../engine/index.js';
import type { MethodSpec } from '../method-context.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import { ErrorCode } from '../error-catalogue.js';
import { runFlowRound } from './flow-call.js';
import { listMethod, type ListOptions } from './list-method.js';

export function describePrompt(prompt: PromptDefinition): Record<string, unknown> {
  return {
    name: prompt.name,
    ...(prompt.title ? { title: prompt.title } : {}),
    description: prompt.description,
    ...(prompt.arguments
      ? {
          arguments: prompt.arguments.map(({ name, title, description, required }) => ({
            name,
            ...(title ? { title } : {}),
            ...(description ? { description } : {}),
            ...(required ? { required } : {}),
          })),
        }
      : {}),
    ...(prompt.icons ? { icons: prompt.icons } : {}),
    ...(prompt._meta ? { _meta: prompt._meta } : {}),
  };
}

export function promptsListMethod(registry: PromptRegistry, options: ListOptions): MethodSpec {
  return listMethod(
    {
      capability: 'prompts',
      field: 'prompts',
      items: () => registry.list(),
      keyOf: (p) => p.name,
      describe: describePrompt,
    },
    options,
  );
}

export function promptsGetMethod(registry: PromptRegistry, engine: FlowEngine): MethodSpec {
  return {
    capability: 'prompts',
    async handle(context) {
      const { name, arguments: args = {} } = context.params;
      if (typeof name !== 'string') throw invalidParams('Invalid params: name must be a string');
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        throw invalidParams('Invalid params: arguments must be an object of strings');
      }
      const prompt = registry.get(name);
      if (!prompt) throw invalidParams(`Unknown prompt: ${name}`);
      const problem = registry.checkArguments(prompt, args as Record<string, unknown>);
      if (problem) throw invalidParams(`Invalid params: ${problem}`);
      return runFlowRound(engine, context, {
        flow: prompt,
        arguments: args as Record<string, unknown>,
        finish: (outcome) => {
          // A prompt has no isError result: a failed prompt machine is a server-side error.
          if (outcome.kind === 'failed') throw new ProtocolError(ErrorCode.InternalError, 'Internal error');
          return { ...toPromptResult(outcome.output) };
        },
      });
    },
  };
}

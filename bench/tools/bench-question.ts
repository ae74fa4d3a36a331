/**
 * What the bench machines share: a state that asks one of a flow's questions and stores the
 * answer's field of the same name in context, and the tool definition built from a flow.
 */
import { assign, type AnyStateMachine } from 'xstate';
import { askForm, defineTool, formContent } from '../../server/engine/index.js';
import type { BenchFlow, BenchQuestion } from '../flows/bench-flows.js';

/** Asks `question`; an accepted answer stores its `field` and goes to `target`. */
export function askAndStore(question: BenchQuestion, field: string, target: string, onDecline: string) {
  return askForm({
    key: question.key,
    message: ({ context }: { context: Record<string, unknown> }) => question.message({ ...context }),
    schema: question.schema,
    onAccept: {
      target,
      actions: assign({ [field]: ({ event }: { event: any }) => formContent<Record<string, unknown>>(event)[field] }),
    },
    onDecline,
  });
}

export function benchTool(flow: BenchFlow, machine: AnyStateMachine) {
  return defineTool({
    name: flow.tool,
    description: flow.description,
    inputSchema: flow.inputSchema,
    machine,
    exampleArguments: flow.arguments,
  });
}

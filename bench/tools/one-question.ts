/**
 * bench-one-question: one form question, then the result. No invoked work and no delays, so the
 * benchmark measures Baton's own cost per round.
 */
import { assign, setup } from 'xstate';
import { askForm, defineTool, formContent, type AnswerEvent } from '../../server/engine/index.js';
import { oneQuestionFlow as flow, questionOf } from '../flows/bench-flows.js';

interface Context {
  greeting: string;
  name: string | null;
}

const name = questionOf(flow, 0);

export const oneQuestionMachine = setup({
  types: {} as { context: Context; input: { greeting: string }; events: AnswerEvent },
}).createMachine({
  id: 'benchOneQuestion',
  initial: 'askName',
  context: ({ input }) => ({ greeting: input.greeting, name: null }),
  output: ({ event }) => event.output,
  states: {
    askName: askForm<Context>({
      key: name.key,
      message: ({ context }) => name.message({ ...context }),
      schema: name.schema,
      onAccept: { target: 'done', actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }) },
      onDecline: 'declined',
    }),
    done: { type: 'final', output: ({ context }) => flow.result({ ...context }) },
    declined: { type: 'final', output: 'Declined.' },
  },
});

export const oneQuestionTool = defineTool({
  name: flow.tool,
  description: flow.description,
  inputSchema: flow.inputSchema,
  machine: oneQuestionMachine,
  exampleArguments: flow.arguments,
});

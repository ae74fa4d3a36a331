/**
 * bench-three-question: window -> approver -> confirm, one question a round, then the result. The
 * shape of the `release` example without its deploy step (which sleeps 15 ms): the sealed state
 * of this flow is the one the issue bounds (600 bytes).
 */
import { assign, setup } from 'xstate';
import { askForm, defineTool, formContent, type AnswerEvent } from '../../server/engine/index.js';
import { questionOf, threeQuestionFlow as flow } from '../flows/bench-flows.js';

interface Context {
  service: string;
  version: string;
  window: string | null;
  approver: string | null;
  confirm: boolean | null;
}

const windowQuestion = questionOf(flow, 0);
const approver = questionOf(flow, 1);
const confirm = questionOf(flow, 2);

export const threeQuestionMachine = setup({
  types: {} as { context: Context; input: { service: string; version: string }; events: AnswerEvent },
}).createMachine({
  id: 'benchThreeQuestion',
  initial: 'pickWindow',
  context: ({ input }) => ({ ...input, window: null, approver: null, confirm: null }),
  output: ({ event }) => event.output,
  states: {
    pickWindow: askForm<Context>({
      key: windowQuestion.key,
      message: ({ context }) => windowQuestion.message({ ...context }),
      schema: windowQuestion.schema,
      onAccept: {
        target: 'pickApprover',
        actions: assign({ window: ({ event }) => formContent<{ window: string }>(event).window }),
      },
      onDecline: 'cancelled',
    }),
    pickApprover: askForm<Context>({
      key: approver.key,
      message: ({ context }) => approver.message({ ...context }),
      schema: approver.schema,
      onAccept: {
        target: 'confirm',
        actions: assign({ approver: ({ event }) => formContent<{ approver: string }>(event).approver }),
      },
      onDecline: 'cancelled',
    }),
    confirm: askForm<Context>({
      key: confirm.key,
      message: ({ context }) => confirm.message({ ...context }),
      schema: confirm.schema,
      onAccept: {
        target: 'done',
        actions: assign({ confirm: ({ event }) => formContent<{ confirm: boolean }>(event).confirm }),
      },
      onDecline: 'cancelled',
    }),
    done: { type: 'final', output: ({ context }) => flow.result({ ...context }) },
    cancelled: { type: 'final', output: 'Cancelled.' },
  },
});

export const threeQuestionTool = defineTool({
  name: flow.tool,
  description: flow.description,
  inputSchema: flow.inputSchema,
  machine: threeQuestionMachine,
  exampleArguments: flow.arguments,
});

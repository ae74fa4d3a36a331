/**
 * bench-parallel: size and region asked in one round (parallel regions), then a confirmation,
 * then the result. The shape of `provision-database` without its invoked checks.
 */
import { assign, setup } from 'xstate';
import { askForm, defineTool, formContent, type AnswerEvent } from '../../server/engine/index.js';
import { parallelFlow as flow, questionOf } from '../flows/bench-flows.js';

interface Context {
  project: string;
  size: string | null;
  region: string | null;
  confirm: boolean | null;
}

const size = questionOf(flow, 0, 0);
const region = questionOf(flow, 0, 1);
const confirm = questionOf(flow, 1);

export const parallelMachine = setup({
  types: {} as { context: Context; input: { project: string }; events: AnswerEvent },
}).createMachine({
  id: 'benchParallel',
  initial: 'collect',
  context: ({ input }) => ({ project: input.project, size: null, region: null, confirm: null }),
  output: ({ event }) => event.output,
  states: {
    collect: {
      type: 'parallel',
      onDone: 'confirm',
      states: {
        size: {
          initial: 'asking',
          states: {
            asking: askForm<Context>({
              key: size.key,
              message: ({ context }) => size.message({ ...context }),
              schema: size.schema,
              onAccept: {
                target: 'chosen',
                actions: assign({ size: ({ event }) => formContent<{ size: string }>(event).size }),
              },
              onDecline: '#benchParallel.cancelled',
            }),
            chosen: { type: 'final' },
          },
        },
        region: {
          initial: 'asking',
          states: {
            asking: askForm<Context>({
              key: region.key,
              message: ({ context }) => region.message({ ...context }),
              schema: region.schema,
              onAccept: {
                target: 'chosen',
                actions: assign({ region: ({ event }) => formContent<{ region: string }>(event).region }),
              },
              onDecline: '#benchParallel.cancelled',
            }),
            chosen: { type: 'final' },
          },
        },
      },
    },
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

export const parallelTool = defineTool({
  name: flow.tool,
  description: flow.description,
  inputSchema: flow.inputSchema,
  machine: parallelMachine,
  exampleArguments: flow.arguments,
});

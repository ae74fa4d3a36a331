/**
 * bench-parallel: size and region asked in one round (parallel regions), then a confirmation,
 * then the result. The shape of `provision-database` without its invoked checks.
 */
import { setup } from 'xstate';
import type { AnswerEvent } from '../../server/engine/index.js';
import { askAndStore, benchTool } from './bench-question.js';
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
            asking: askAndStore(size, 'size', 'chosen', '#benchParallel.cancelled'),
            chosen: { type: 'final' },
          },
        },
        region: {
          initial: 'asking',
          states: {
            asking: askAndStore(region, 'region', 'chosen', '#benchParallel.cancelled'),
            chosen: { type: 'final' },
          },
        },
      },
    },
    confirm: askAndStore(confirm, 'confirm', 'done', 'cancelled'),
    done: { type: 'final', output: ({ context }) => flow.result({ ...context }) },
    cancelled: { type: 'final', output: 'Cancelled.' },
  },
});

export const parallelTool = benchTool(flow, parallelMachine);

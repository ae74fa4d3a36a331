/**
 * bench-three-question: window -> approver -> confirm, one question a round, then the result. The
 * shape of the `release` example without its deploy step (which sleeps 15 ms): the sealed state
 * of this flow is the one the issue bounds (600 bytes).
 */
import { setup } from 'xstate';
import type { AnswerEvent } from '../../server/engine/index.js';
import { askAndStore, benchTool } from './bench-question.js';
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
    pickWindow: askAndStore(windowQuestion, 'window', 'pickApprover', 'cancelled'),
    pickApprover: askAndStore(approver, 'approver', 'confirm', 'cancelled'),
    confirm: askAndStore(confirm, 'confirm', 'done', 'cancelled'),
    done: { type: 'final', output: ({ context }) => flow.result({ ...context }) },
    cancelled: { type: 'final', output: 'Cancelled.' },
  },
});

export const threeQuestionTool = benchTool(flow, threeQuestionMachine);

/**
 * bench-one-question: one form question, then the result. No invoked work and no delays, so the
 * benchmark measures Baton's own cost per round.
 */
import { setup } from 'xstate';
import type { AnswerEvent } from '../../server/engine/index.js';
import { askAndStore, benchTool } from './bench-question.js';
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
    askName: askAndStore(name, 'name', 'done', 'declined'),
    done: { type: 'final', output: ({ context }) => flow.result({ ...context }) },
    declined: { type: 'final', output: 'Declined.' },
  },
});

export const oneQuestionTool = benchTool(flow, oneQuestionMachine);

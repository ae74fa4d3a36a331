/**
 * A task tool that asks one question again and again: a number of at least 10. Inside a task its
 * keys are `number`, `number.2`, … (unique over the task's life), which clients must map back to
 * the one question. Shared by the `baton call` and Try it panel tests.
 */
import { assign, setup } from 'xstate';
import { askForm, defineTool, formContent, startsTask, type AnswerEvent } from '../../server/engine/index.js';

export const numberTask = defineTool({
  name: 'number-task',
  description: 'Asks for a number of at least 10 inside a task, again until it gets one.',
  inputSchema: { type: 'object' },
  task: 'required',
  // The docs' example run answers as a cooperative user would; a derived answer (0) would re-ask.
  exampleAnswers: { number: { action: 'accept', content: { n: 12 } } },
  machine: setup({
    types: {} as { context: { n: number }; events: AnswerEvent },
    guards: { enough: ({ event }) => formContent<{ n: number }>(event).n >= 10 },
  }).createMachine({
    id: 'numberTask',
    initial: 'asking',
    context: { n: 0 },
    output: ({ event }) => event.output,
    states: {
      asking: startsTask(
        askForm({
          key: 'number',
          message: 'A number of at least 10?',
          schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
          onAccept: [
            {
              guard: 'enough',
              target: 'done',
              actions: assign({ n: ({ event }) => formContent<{ n: number }>(event).n }),
            },
            { target: 'asking', reenter: true },
          ],
          onDecline: 'done',
        }),
      ),
      done: { type: 'final', output: ({ context }) => `got ${context.n}` },
    },
  }),
});

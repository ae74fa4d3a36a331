/**
 * multi_input: a task that asks two questions at once, from two parallel regions; each can be
 * answered by its own `tasks/update` (`tasks-mrtr-input`, partial fulfilment).
 */
import { setup } from 'xstate';
import { askForm, defineTool, startsTask, type AnswerEvent } from '../../../server/engine/index.js';

const region = (key: string, message: string, property: Record<string, Record<string, unknown>>) => ({
  initial: 'asking',
  states: {
    asking: askForm({
      key,
      message,
      schema: { type: 'object', properties: property },
      onAccept: 'answered',
      onDecline: 'answered',
    }),
    answered: { type: 'final' as const },
  },
});

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'multiInput',
  initial: 'asking',
  output: ({ event }) => event.output,
  states: {
    asking: startsTask({
      type: 'parallel',
      onDone: 'done',
      states: {
        name: region('name', 'What is your name?', { name: { type: 'string' } }),
        confirm: region('confirm', 'Shall we go on?', { confirm: { type: 'boolean' } }),
      },
    }),
    done: { type: 'final', output: 'Both answers received.' },
  },
});

export const multiInput = defineTool({
  name: 'multi_input',
  description: 'Asks two questions at once inside a task.',
  inputSchema: { type: 'object' },
  machine,
  task: 'optional',
});

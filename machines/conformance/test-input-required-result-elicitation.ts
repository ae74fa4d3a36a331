/** test_input_required_result_elicitation: ask a name, greet (conformance `basic-elicitation` and friends). */
import { assign, setup } from 'xstate';
import { defineTool, formContent, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { context: { name: string }; events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultElicitation',
  initial: 'askName',
  context: { name: '' },
  output: ({ event }) => event.output,
  states: {
    askName: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'user_name',
          message: 'What is your name?',
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      on: {
        'answer.user_name.accept': {
          target: 'greet',
          actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }),
        },
        'answer.user_name.decline': 'declined',
        'answer.user_name.cancel': 'declined',
      },
    },
    greet: { type: 'final', output: ({ context }) => `Hello, ${context.name}!` },
    declined: { type: 'final', output: 'No name was given.' },
  },
});

export const testInputRequiredResultElicitation = defineTool({
  name: 'test_input_required_result_elicitation',
  description: 'Asks for a name through form elicitation, then greets.',
  inputSchema: NO_ARGUMENTS,
  machine,
});

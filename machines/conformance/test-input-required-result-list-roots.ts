/** test_input_required_result_list_roots: ask for the client's roots, list them (`basic-list-roots`). */
import { assign, setup } from 'xstate';
import { defineTool, type AnswerEvent, type RootsResultEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { context: { roots: string[] }; events: AnswerEvent } }).createMachine({
  id: 'testInputRequiredResultListRoots',
  initial: 'askRoots',
  context: { roots: [] },
  output: ({ event }) => event.output,
  states: {
    askRoots: {
      tags: ['baton.input'],
      meta: { 'baton.input': { kind: 'roots', key: 'client_roots' } },
      on: {
        'answer.client_roots.result': {
          target: 'done',
          actions: assign({ roots: ({ event }) => (event as RootsResultEvent).roots.map((root) => root.uri) }),
        },
      },
    },
    done: { type: 'final', output: ({ context }) => `Roots: ${context.roots.join(', ') || '(none)'}` },
  },
});

export const testInputRequiredResultListRoots = defineTool({
  name: 'test_input_required_result_list_roots',
  description: "Asks for the client's roots.",
  inputSchema: NO_ARGUMENTS,
  machine,
});

/**
 * test_missing_capability: asks the client's model first thing, so a client without `sampling`
 * gets -32021 before anything runs (conformance `server-stateless`).
 */
import { setup } from 'xstate';
import { defineTool, type AnswerEvent } from '../../server/engine/index.js';
import { NO_ARGUMENTS } from './media.js';

const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
  id: 'testMissingCapability',
  initial: 'sample',
  output: ({ event }) => event.output,
  states: {
    sample: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'sampling',
          key: 'sample',
          request: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 20 },
        },
      },
      on: { 'answer.sample.result': 'done' },
    },
    done: { type: 'final', output: 'Sampling answered.' },
  },
});

export const testMissingCapability = defineTool({
  name: 'test_missing_capability',
  description: 'Needs sampling: refused with -32021 when the client has not declared it.',
  inputSchema: NO_ARGUMENTS,
  machine,
});

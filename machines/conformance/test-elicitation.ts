/**
 * test_elicitation: asks the user for a name and an email with the caller's message, and reports
 * the answer (conformance 2025-11-25 `tools-call-elicitation`, where the question is an
 * `elicitation/create` request on the call's stream).
 */
import { defineTool } from '../../server/engine/index.js';
import { reportingSetup } from './elicit-and-report.js';

const machine = reportingSetup('User response').createMachine({
  id: 'testElicitation',
  initial: 'ask',
  context: ({ input }) => ({ message: String(input?.message), report: '' }),
  output: ({ event }) => event.output,
  states: {
    ask: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'user_info',
          message: ({ context }: { context: { message: string } }) => context.message,
          schema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        },
      },
      on: {
        'answer.user_info.accept': { target: 'done', actions: 'reportAccept' },
        'answer.user_info.decline': { target: 'done', actions: 'reportDecline' },
        'answer.user_info.cancel': { target: 'done', actions: 'reportCancel' },
      },
    },
    done: { type: 'final', output: ({ context }) => context.report },
  },
});

export const testElicitation = defineTool({
  name: 'test_elicitation',
  description: 'Asks the user for their name and email, then reports the answer.',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'The message to show the user' } },
    required: ['message'],
  },
  machine,
});

/**
 * test_elicitation: asks the user for a name and an email with the caller's message, and reports
 * the answer (conformance 2025-11-25 `tools-call-elicitation`, where the question is an
 * `elicitation/create` request on the call's stream).
 */
import { defineTool } from '../../server/engine/index.js';
import { elicitAndReportMachine } from './elicit-and-report.js';

export const testElicitation = defineTool({
  name: 'test_elicitation',
  description: 'Asks the user for their name and email, then reports the answer.',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'The message to show the user' } },
    required: ['message'],
  },
  machine: elicitAndReportMachine({
    id: 'testElicitation',
    key: 'user_info',
    message: (input) => String(input.message),
    schema: {
      type: 'object',
      properties: {
        username: { type: 'string', description: "User's response" },
        email: { type: 'string', description: "User's email address" },
      },
      required: ['username', 'email'],
    },
    prefix: 'User response',
  }),
});

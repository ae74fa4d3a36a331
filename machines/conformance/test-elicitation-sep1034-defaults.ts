/**
 * test_elicitation_sep1034_defaults: a form whose every primitive field carries a default
 * (SEP-1034; conformance 2025-11-25 `elicitation-sep1034-defaults`).
 */
import { defineTool } from '../../server/engine/index.js';
import { reportingSetup } from './elicit-and-report.js';
import { NO_ARGUMENTS } from './media.js';

const machine = reportingSetup('Elicitation completed').createMachine({
  id: 'testElicitationSep1034Defaults',
  initial: 'ask',
  context: { message: 'Please review your profile.', report: '' },
  output: ({ event }) => event.output,
  states: {
    ask: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'profile',
          message: ({ context }: { context: { message: string } }) => context.message,
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string', default: 'John Doe' },
              age: { type: 'integer', default: 30 },
              score: { type: 'number', default: 95.5 },
              status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', default: true },
            },
          },
        },
      },
      on: {
        'answer.profile.accept': { target: 'done', actions: 'reportAccept' },
        'answer.profile.decline': { target: 'done', actions: 'reportDecline' },
        'answer.profile.cancel': { target: 'done', actions: 'reportCancel' },
      },
    },
    done: { type: 'final', output: ({ context }) => context.report },
  },
});

export const testElicitationSep1034Defaults = defineTool({
  name: 'test_elicitation_sep1034_defaults',
  description: 'Asks a form whose fields all have default values.',
  inputSchema: NO_ARGUMENTS,
  machine,
});

/**
 * test_elicitation_sep1330_enums: one form with all five enum shapes of SEP-1330, the deprecated
 * `enumNames` included (conformance 2025-11-25 `elicitation-sep1330-enums`).
 */
import { defineTool } from '../../server/engine/index.js';
import { reportingSetup } from './elicit-and-report.js';
import { NO_ARGUMENTS } from './media.js';

const machine = reportingSetup('Elicitation completed').createMachine({
  id: 'testElicitationSep1330Enums',
  initial: 'ask',
  context: { message: 'Please choose.', report: '' },
  output: ({ event }) => event.output,
  states: {
    ask: {
      tags: ['baton.input'],
      meta: {
        'baton.input': {
          kind: 'form',
          key: 'choices',
          message: ({ context }: { context: { message: string } }) => context.message,
          schema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
              titledMulti: {
                type: 'array',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
          },
        },
      },
      on: {
        'answer.choices.accept': { target: 'done', actions: 'reportAccept' },
        'answer.choices.decline': { target: 'done', actions: 'reportDecline' },
        'answer.choices.cancel': { target: 'done', actions: 'reportCancel' },
      },
    },
    done: { type: 'final', output: ({ context }) => context.report },
  },
});

export const testElicitationSep1330Enums = defineTool({
  name: 'test_elicitation_sep1330_enums',
  description: 'Asks a form with every enum variant: untitled, titled, legacy titled, and both multi-selects.',
  inputSchema: NO_ARGUMENTS,
  machine,
});

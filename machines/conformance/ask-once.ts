/**
 * The machine several fixtures share: ask one form question, then finish with one text when the
 * user accepts and another when they decline or cancel. Each fixture file still owns its tool.
 */
import { setup } from 'xstate';
import { askForm, type AnswerEvent, type FormSchema } from '../../server/engine/index.js';

export interface AskOnce {
  id: string;
  key: string;
  message: string;
  schema: FormSchema;
  accepted: string;
  declined: string;
}

export function askOnceMachine(spec: AskOnce) {
  return setup({ types: {} as { events: AnswerEvent } }).createMachine({
    id: spec.id,
    initial: 'ask',
    output: ({ event }) => event.output,
    states: {
      ask: askForm({
        key: spec.key,
        message: spec.message,
        schema: spec.schema,
        onAccept: 'accepted',
        onDecline: 'declined',
      }),
      accepted: { type: 'final', output: spec.accepted },
      declined: { type: 'final', output: spec.declined },
    },
  });
}

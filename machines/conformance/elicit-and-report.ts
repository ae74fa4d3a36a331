/**
 * The machine the 2025-11-25 elicitation fixtures share: ask one form question (its message and
 * schema may come from the arguments), then report what the user did, whatever it was
 * ("<prefix>: action=accept, content={…}"). Each fixture file still owns its tool.
 */
import { assign, setup } from 'xstate';
import { askForm, formContent, type AnswerEvent, type FormSchema } from '../../server/engine/index.js';

export interface ElicitAndReport {
  id: string;
  key: string;
  message: (input: Record<string, unknown>) => string;
  schema: FormSchema;
  /** What the result text starts with. */
  prefix: string;
}

type Context = { message: string; report: string };

export function elicitAndReportMachine(spec: ElicitAndReport) {
  const reported = (action: string) =>
    assign({
      report: ({ event }: { event: AnswerEvent }) =>
        `${spec.prefix}: action=${action}${action === 'accept' ? `, content=${JSON.stringify(formContent(event))}` : ''}`,
    });
  return setup({
    types: {} as { context: Context; events: AnswerEvent; input: Record<string, unknown> },
  }).createMachine({
    id: spec.id,
    initial: 'ask',
    context: ({ input }) => ({ message: spec.message(input ?? {}), report: '' }),
    output: ({ event }) => event.output,
    states: {
      ask: askForm<Context>({
        key: spec.key,
        message: ({ context }) => context.message,
        schema: spec.schema,
        onAccept: { target: 'done', actions: reported('accept') },
        onDecline: { target: 'done', actions: reported('decline') },
        onCancel: { target: 'done', actions: reported('cancel') },
      }),
      done: { type: 'final', output: ({ context }) => context.report },
    },
  });
}

/**
 * The setup the 2025-11-25 elicitation fixtures share: each asks one form question (its message
 * may come from the arguments), then reports what the user did, whatever it was
 * ("<prefix>: action=accept, content={…}"), with the named actions here. Each fixture file writes
 * its own machine, so the Stately editor's parser reads each whole.
 */
import { assign, setup } from 'xstate';
import { formContent, type AnswerEvent } from '../../server/engine/index.js';

type Context = { message: string; report: string };

export function reportingSetup(prefix: string) {
  const report =
    (action: string) =>
    ({ event }: { event: AnswerEvent }) =>
      `${prefix}: action=${action}${action === 'accept' ? `, content=${JSON.stringify(formContent(event))}` : ''}`;
  return setup({
    types: {} as { context: Context; events: AnswerEvent; input: Record<string, unknown> },
    actions: {
      reportAccept: assign({ report: report('accept') }),
      reportDecline: assign({ report: report('decline') }),
      reportCancel: assign({ report: report('cancel') }),
    },
  });
}

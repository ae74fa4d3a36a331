/**
 * collect-feedback: a tool drawn, not coded. Its machine is `collect-feedback.machine.json`, the
 * config a visual statechart editor exports; this file implements, by name, what the JSON refers
 * to (the actions recordRating, recordDetails and recordTicket, the guard unhappy, the actor
 * saveFeedback) plus what JSON cannot hold: the context built from the arguments, the input of the
 * invoked actor (withActorInputs) and the output built from the final state's `outcome`.
 *
 *   rate (form) -> triage -(unhappy)-> askWhatWentWrong (form) -> saving (invoked) -> thanked
 *                         \-----------------------------------/
 *
 * Input states are plain data in the JSON, as in every tool: the `baton.input` tag, the question
 * whole in `meta["baton.input"]` and `on` handlers for answer.<key>.accept|decline|cancel; the
 * start-up checks refuse the tool if one is missing, or if the JSON names an implementation this
 * file lacks. The Stately editor imports the JSON as it is, and `baton export collect-feedback
 * --json` writes it back.
 */
import { createHash } from 'node:crypto';
import { assign, fromPromise, setup } from 'xstate';
import { defineTool, formContent, withActorInputs, type AnswerEvent } from '../../server/engine/index.js';
import machineJson from './collect-feedback.machine.json' with { type: 'json' };

export interface FeedbackArgs {
  subject: string;
}

interface FeedbackContext extends FeedbackArgs {
  rating: number | null;
  comment: string | null;
  whatWentWrong: string | null;
  contactMe: boolean;
  ticketId: string | null;
}

export type StoredFeedback = Omit<FeedbackContext, 'ticketId'>;

/** Stands in for a feedback store; the ticket id is derived from the content, so reruns agree. */
export const simulatedSaveFeedback = fromPromise<{ ticketId: string }, StoredFeedback>(async ({ input }) => ({
  ticketId: `FB-${createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 6)}`,
}));

/** What the docs' example runs instead of storing: the same ticket id, and nothing stored. */
const exampleSaveFeedback = simulatedSaveFeedback;

const feedbackSetup = setup({
  types: {} as { context: FeedbackContext; input: FeedbackArgs; events: AnswerEvent },
  actions: {
    recordRating: assign(({ event }) => {
      const { rating, comment } = formContent<{ rating: number; comment?: string }>(event);
      return { rating, comment: comment ?? null };
    }),
    recordDetails: assign(({ event }) => {
      const { whatWentWrong, contactMe } = formContent<{ whatWentWrong: string; contactMe?: boolean }>(event);
      return { whatWentWrong, contactMe: contactMe === true };
    }),
    recordTicket: assign({
      ticketId: ({ event }) => (event as unknown as { output: { ticketId: string } }).output.ticketId,
    }),
  },
  guards: {
    unhappy: ({ context }) => context.rating !== null && context.rating <= 2,
  },
  actors: { saveFeedback: simulatedSaveFeedback },
});

type FeedbackConfig = Parameters<typeof feedbackSetup.createMachine>[0];

function resultFor(outcome: string | undefined, context: FeedbackContext) {
  switch (outcome) {
    case 'thanked':
      return {
        subject: context.subject,
        rating: context.rating,
        ticketId: context.ticketId,
        followUp: context.contactMe,
      };
    case 'skipped':
      return `No feedback about ${context.subject} was given; nothing was stored.`;
    default:
      return {
        content: [{ type: 'text', text: `The feedback about ${context.subject} could not be stored.` }],
        isError: true,
      };
  }
}

/**
 * The machine of a collect-feedback JSON config, with this file's implementations: the JSON as
 * the editor writes it (`baton export collect-feedback --json` gives it back).
 */
export function feedbackMachineFrom(json: object) {
  return feedbackSetup.createMachine({
    // The JSON's shape is checked by XState when the machine is built and by Baton at start-up.
    // JSON cannot say what an invoked actor gets, so its input is added here, by actor name.
    ...withActorInputs(json as unknown as FeedbackConfig, {
      saveFeedback: ({ context }: { context: FeedbackContext }) => {
        const { ticketId: _ticketId, ...feedback } = context;
        return feedback;
      },
    }),
    context: ({ input }) => ({
      subject: input.subject,
      rating: null,
      comment: null,
      whatWentWrong: null,
      contactMe: false,
      ticketId: null,
    }),
    output: ({ context, event }) => resultFor((event.output as { outcome?: string } | undefined)?.outcome, context),
  });
}

export const collectFeedbackMachine = feedbackMachineFrom(machineJson);

export const collectFeedbackTool = defineTool({
  name: 'collect-feedback',
  title: 'Collect feedback',
  description:
    'Ask the user to rate something (a release, a support case) and, when the rating is low, what went wrong; stores the feedback.',
  inputSchema: {
    type: 'object',
    properties: { subject: { type: 'string', minLength: 1, description: 'What the feedback is about' } },
    required: ['subject'],
    additionalProperties: false,
  },
  // Idempotent: the ticket id is a digest of the feedback, so storing the same feedback twice
  // (a resent round) files it under the same ticket.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  machine: collectFeedbackMachine,
  exampleArguments: { subject: 'the billing 2.4.0 release' },
  exampleActors: { saveFeedback: exampleSaveFeedback },
  exampleAnswers: {
    rating: { action: 'accept', content: { rating: 2, comment: 'It went out an hour late.' } },
    details: { action: 'accept', content: { whatWentWrong: 'Nobody said it was delayed.', contactMe: true } },
  },
});

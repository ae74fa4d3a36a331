/**
 * The newcomer's onboarding tool (issue 40), as they wrote it: a parallel state whose regions ask
 * at once, each keeping its answer in context (an enum, where `none` or a refusal means no team;
 * a yes/no), `onDone` guards on the parallel state that read both to choose the way on (no team:
 * cancelled; a laptop: a follow-up question), then a step that may fail. A correct machine the
 * kit once blamed: telling states apart by value alone merged "team: none" with "team:
 * platform", and planned the second to end where the first ends.
 */
import { assign, fromPromise } from 'xstate';
import { toolSetup } from '../../server/engine/index.js';

interface OnboardingContext {
  team: 'platform' | 'payments' | 'none' | null;
  laptop: boolean | null;
  address: string | null;
}

export function onboardingTool() {
  const tool = toolSetup({
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    questions: {
      team: {
        kind: 'form',
        message: 'Which team do you join?',
        schema: {
          type: 'object',
          properties: { team: { type: 'string', title: 'Team', enum: ['none', 'platform', 'payments'] } },
          required: ['team'],
        },
      },
      laptop: {
        kind: 'form',
        message: 'Do you need a laptop?',
        schema: {
          type: 'object',
          properties: { laptop: { type: 'boolean', title: 'Laptop' } },
          required: ['laptop'],
        },
      },
      address: {
        kind: 'form',
        message: 'Where should the laptop go?',
        schema: {
          type: 'object',
          properties: { address: { type: 'string', title: 'Address' } },
          required: ['address'],
        },
      },
    },
    types: {} as { context: OnboardingContext },
    actors: { createAccount: fromPromise(async () => ({ account: 'new-hire' })) },
  });
  const machine = tool.createMachine({
    id: 'onboarding',
    initial: 'profile',
    context: { team: null, laptop: null, address: null },
    states: {
      profile: {
        type: 'parallel',
        states: {
          team: {
            initial: 'asking',
            states: {
              asking: tool.ask.team({
                onAccept: { target: 'answered', actions: assign({ team: ({ event }) => event.content.team }) },
                onDecline: { target: 'answered', actions: assign({ team: 'none' }) },
              }),
              answered: { type: 'final' },
            },
          },
          laptop: {
            initial: 'asking',
            states: {
              asking: tool.ask.laptop({
                onAccept: { target: 'answered', actions: assign({ laptop: ({ event }) => event.content.laptop }) },
                onDecline: { target: 'answered', actions: assign({ laptop: false }) },
              }),
              answered: { type: 'final' },
            },
          },
        },
        onDone: [
          { guard: ({ context }) => context.team === 'none', target: 'cancelled' },
          { guard: ({ context }) => context.laptop === true, target: 'shipping' },
          { target: 'welcoming' },
        ],
      },
      shipping: tool.ask.address({
        onAccept: { target: 'welcoming', actions: assign({ address: ({ event }) => event.content.address }) },
        onDecline: 'welcoming',
      }),
      welcoming: { invoke: { src: 'createAccount', onDone: 'onboarded', onError: 'failed' } },
      onboarded: { type: 'final', output: ({ context }) => `Welcome to ${context.team}.` },
      cancelled: { type: 'final', output: 'No team chosen: nothing was set up.' },
      failed: {
        type: 'final',
        output: () => ({ content: [{ type: 'text', text: 'The account could not be created.' }], isError: true }),
      },
    },
  });
  return tool.defineTool({ name: 'onboarding', description: 'Onboards a new hire.', machine });
}

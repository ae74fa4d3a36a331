/** Small tools for the test kit's own tests: flawed on purpose, or with branches example answers miss. */
import { assign, fromPromise, setup, type AnyEventObject } from 'xstate';
import { askForm, defineTool, toolSetup, type AnswerEvent } from '../../server/engine/index.js';

const YES_NO = { type: 'object' as const, properties: { ok: { type: 'boolean' } }, required: ['ok'] };

/** `ask` → done on accept; declining asks again, forever; cancelling ends in a tool error. */
export function flawedTool() {
  const machine = setup({ types: {} as { events: AnswerEvent } }).createMachine({
    id: 'flawed',
    initial: 'ask',
    output: ({ event }) => (event as AnyEventObject).output,
    states: {
      ask: {
        initial: 'asking',
        states: {
          asking: askForm({
            key: 'ok',
            message: 'OK?',
            schema: YES_NO,
            onAccept: '#flawed.done',
            onDecline: 'again',
            onCancel: '#flawed.broken',
          }),
          again: { always: 'asking' },
        },
      },
      done: { type: 'final', output: 'done' },
      broken: {
        type: 'final',
        output: () => ({ content: [{ type: 'text', text: 'broke' }], isError: true }),
      },
    },
  });
  return defineTool({
    name: 'flawed',
    description: 'Loops on decline, fails on cancel.',
    inputSchema: { type: 'object', additionalProperties: false },
    machine,
  });
}

/**
 * A provisioning tool with the bug the kit must catch: declining the confirmation provisions
 * anyway (the graph and the run agree on where it ends; only the effect gives it away).
 * `provisioned` counts the real provisioning runs.
 */
export function declineProvisionsTool(provisioned: string[] = []) {
  const tool = toolSetup({
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    questions: {
      confirm: {
        kind: 'form',
        message: 'Create the database?',
        schema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Create it' } },
          required: ['confirm'],
        },
      },
    },
    types: {} as { context: Record<string, never> },
    actors: {
      provision: fromPromise(async () => {
        provisioned.push('db');
        return { url: 'postgres://db' };
      }),
    },
    guards: { confirmed: ({ event }) => event.type === 'answer.confirm.accept' && event.content.confirm },
  });
  const machine = tool.createMachine({
    id: 'wrong',
    initial: 'confirm',
    context: {},
    states: {
      confirm: tool.ask.confirm({
        onAccept: [{ guard: 'confirmed', target: 'provisioning' }, { target: 'cancelled' }],
        onDecline: 'provisioning',
        onCancel: 'cancelled',
      }),
      provisioning: { invoke: { src: 'provision', onDone: 'provisioned', onError: 'cancelled' } },
      provisioned: { type: 'final', output: 'Created.' },
      cancelled: { type: 'final', output: 'Nothing was created.' },
    },
  });
  return tool.defineTool({ name: 'wrong-provision', description: 'Provisions even when declined.', machine });
}

const weekend = (date: string) => [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay());

/**
 * A booking: a date (a weekend date is refused by a guard on the answer and asked again), an
 * availability check (an invoked actor: the calendar), then `booked`; the check failing ends in
 * `failed` with a tool error, declining in `gaveUp`. When the date is taken, `whenTaken` says
 * whether the date is asked again (`reask`) or the flow ends in `full`.
 */
export function bookingTool(options: { taken?: string[]; whenTaken?: 'reask' | 'end' } = {}) {
  const taken = new Set(options.taken ?? []);
  const tool = toolSetup({
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    questions: {
      date: {
        kind: 'form',
        message: ({ context }) => (context.problem ? `${context.problem} Which date?` : 'Which date?'),
        schema: {
          type: 'object',
          properties: { date: { type: 'string', format: 'date', title: 'Date' } },
          required: ['date'],
        },
      },
    },
    types: {} as { context: { date: string | null; problem: string | null } },
    actors: {
      checkAvailability: fromPromise<{ available: boolean }, { date: string }>(async ({ input }) => ({
        available: !taken.has(input.date),
      })),
    },
  });
  const machine = tool.createMachine({
    id: 'booking',
    initial: 'pickDate',
    context: { date: null, problem: null },
    states: {
      pickDate: tool.ask.date({
        onAccept: [
          {
            guard: ({ event }) => weekend(event.content.date),
            target: 'pickDate',
            reenter: true,
            actions: assign({ problem: 'We are closed at weekends.' }),
          },
          { target: 'checking', actions: assign({ date: ({ event }) => event.content.date }) },
        ],
        onDecline: 'gaveUp',
      }),
      checking: {
        invoke: {
          src: 'checkAvailability',
          input: ({ context }) => ({ date: context.date! }),
          onDone: [
            { guard: ({ event }) => event.output.available, target: 'booked' },
            options.whenTaken === 'end'
              ? { target: 'full' }
              : { target: 'pickDate', actions: assign({ problem: 'That date is taken.' }) },
          ],
          onError: 'failed',
        },
      },
      booked: { type: 'final', output: ({ context }) => `Booked for ${context.date}.` },
      full: { type: 'final', output: ({ context }) => `${context.date} is taken.` },
      gaveUp: { type: 'final', output: 'No booking.' },
      failed: {
        type: 'final',
        output: () => ({ content: [{ type: 'text', text: 'The calendar failed.' }], isError: true }),
      },
    },
  });
  return tool.defineTool({
    name: 'booking',
    description: 'Books a weekday that is free.',
    machine,
    // The calendar only reads.
    safeActors: ['checkAvailability'],
  });
}

const TEAM_QUESTIONS = {
  team: {
    kind: 'form',
    message: 'Which team?',
    schema: {
      type: 'object',
      properties: { team: { type: 'string', enum: ['platform', 'design'] } },
      required: ['team'],
    },
  },
  details: {
    kind: 'form',
    message: 'Anything else?',
    schema: {
      type: 'object',
      properties: { laptop: { type: 'boolean' }, note: { type: 'string' } },
      required: ['laptop'],
    },
  },
} as const;

/** The setup of `teamTool`: an enum question (`team`) and a form of two fields (`details`). */
export const teamSetup = toolSetup({
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  questions: TEAM_QUESTIONS,
  types: {} as { context: { team: string | null } },
});

/** Asks the team (one enum field), then the details; declining either ends in `none`. */
export function teamTool() {
  const machine = teamSetup.createMachine({
    id: 'team',
    initial: 'team',
    context: { team: null },
    states: {
      team: teamSetup.ask.team({
        onAccept: { target: 'details', actions: assign({ team: ({ event }) => event.content.team }) },
        onDecline: 'none',
      }),
      details: teamSetup.ask.details({ onAccept: 'joined', onDecline: 'none' }),
      joined: { type: 'final', output: ({ context }) => `Joined ${context.team}.` },
      none: { type: 'final', output: 'Joined nothing.' },
    },
  });
  return teamSetup.defineTool({ name: 'team', description: 'Joins a team.', machine });
}

/** `teamTool`'s machine behind a plain `defineTool`: nothing types its answers. */
export function untypedTeamTool() {
  const { machine, name, description, inputSchema } = teamTool();
  return defineTool({ name: `${name}-untyped`, description, inputSchema, machine });
}

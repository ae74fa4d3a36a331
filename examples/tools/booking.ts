/**
 * The booking tool docs/testing.md tests with answer variants and actor outcomes: a date asked,
 * a weekend refused by a guard, the calendar asked, and asked again when it has no room.
 */
import { assign, fromPromise } from 'xstate';
import { toolSetup } from 'baton-mcp';

const booking = toolSetup({
  inputSchema: { type: 'object', properties: { room: { type: 'string' } }, required: ['room'] },
  questions: {
    date: {
      kind: 'form',
      message: 'Which day?',
      schema: { type: 'object', properties: { date: { type: 'string', format: 'date' } }, required: ['date'] },
    },
  },
  types: {} as { context: { room: string; date: string | null } },
  actors: {
    checkAvailability: fromPromise(async ({ input }: { input: { room: string; date: string } }) => ({
      available: input.date !== '',
    })),
  },
  guards: {
    weekday: ({ event }) =>
      event.type === 'answer.date.accept' && ![0, 6].includes(new Date(event.content.date).getUTCDay()),
  },
});

const machine = booking.createMachine({
  id: 'booking',
  initial: 'askDate',
  context: ({ input }) => ({ room: input.room, date: null }),
  states: {
    askDate: {
      tags: ['baton.input'],
      meta: { 'baton.input': { key: 'date' } },
      on: {
        'answer.date.accept': [
          { guard: 'weekday', target: 'checking', actions: assign({ date: ({ event }) => event.content.date }) },
          { target: 'askDate', reenter: true },
        ],
        'answer.date.decline': 'withdrawn',
        'answer.date.cancel': 'withdrawn',
      },
    },
    checking: {
      invoke: {
        src: 'checkAvailability',
        input: ({ context }) => ({ room: context.room, date: context.date ?? '' }),
        onDone: [{ guard: ({ event }) => event.output.available, target: 'booked' }, { target: 'askDate' }],
        onError: 'failed',
      },
    },
    booked: { type: 'final', output: ({ context }) => `Booked ${context.room} on ${context.date}.` },
    withdrawn: { type: 'final', output: 'Nothing booked.' },
    failed: { type: 'final', output: { content: [{ type: 'text', text: 'The calendar is down.' }], isError: true } },
  },
});

export const bookingTool = booking.defineTool({
  name: 'booking',
  description: 'Books a room on a weekday the calendar has free.',
  machine,
  exampleArguments: { room: 'blue' },
});

// The @example of `ToolSetup.ask`, compiled; `npm run docs:examples` copies the region into its doc comment.
// #region ToolSetup.ask
import { assign } from 'xstate';
import { toolSetup } from 'baton-mcp';

const naming = toolSetup({
  inputSchema: { type: 'object', properties: {} },
  questions: {
    name: {
      kind: 'form',
      message: 'Your name?',
      schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
  types: {} as { context: { name: string } },
});

export const namingMachine = naming.createMachine({
  id: 'naming',
  initial: 'askName',
  context: { name: '' },
  states: {
    // The same state as a plain question state, built by a call (which XState's editor cannot read).
    askName: naming.ask.name({
      onAccept: { target: 'named', actions: assign({ name: ({ event }) => event.content.name }) },
      onDecline: 'anonymous', // and onCancel, unless given
    }),
    named: { type: 'final', output: ({ context }) => `Hello, ${context.name}.` },
    anonymous: { type: 'final', output: 'Hello.' },
  },
});
// #endregion ToolSetup.ask

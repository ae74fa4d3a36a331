/**
 * connect-payments: link a payment provider account, whose secret key must never pass through
 * the chat. The spec forbids asking for secrets with a form, so the tool sends the user to a page
 * (URL-mode elicitation) where the key goes straight into the vault.
 *
 *   linkAccount (URL) -> checking (invoked lookup) -> connected
 *                               \-> linkAccount again ("not received yet")
 *
 * An `accept` only means the user agreed to open the page (spec, elicitation "URL mode"); the
 * retry checks the vault and finishes when the key is there, or asks again. Declining ends in
 * `cancelled`. The connection id is random and lives in the sealed state, so only this flow can
 * find its key. The page's URL carries no connection id, only the page reference Baton seals for
 * this flow and user (`pageRef`): the page refuses a key from anyone but the user who started the
 * flow (spec, elicitation "Phishing").
 */
import { randomUUID } from 'node:crypto';
import { assign, fromPromise } from 'xstate';
import { toolSetup } from '../../server/engine/index.js';
import type { SecretVault } from './secret-vault.js';

interface ConnectContext {
  provider: 'stripe' | 'adyen' | 'mollie';
  connectionId: string;
  attempts: number;
  last4: string | null;
}

export interface ConnectPaymentsDeps {
  vault: SecretVault;
  /** The page where the user enters the key, for a page reference (see vault-page.ts). */
  pageUrl: (pageRef: string) => string;
}

function connectSetup(deps: ConnectPaymentsDeps) {
  return toolSetup({
    inputSchema: {
      type: 'object',
      properties: { provider: { type: 'string', enum: ['stripe', 'adyen', 'mollie'], description: 'Provider' } },
      required: ['provider'],
      additionalProperties: false,
    },
    // #region url-question
    questions: {
      link: {
        kind: 'url',
        message: ({ context }) =>
          context.attempts === 0
            ? `Open this page to enter your ${context.provider} secret key. It goes straight to the vault and never passes through this chat.`
            : `The ${context.provider} key has not arrived yet. Open the page, submit the key, then continue.`,
        url: ({ pageRef }) => deps.pageUrl(pageRef),
        // The page learns the connection from the sealed reference, and only for this flow's user.
        subject: ({ context }) => context.connectionId,
      },
    },
    // #endregion url-question
    types: {} as { context: ConnectContext },
    actors: {
      lookupSecret: fromPromise<{ last4: string } | undefined, { connectionId: string }>(({ input }) =>
        deps.vault.lookup(input.connectionId),
      ),
    },
  });
}

export function createConnectPaymentsMachine(deps: ConnectPaymentsDeps) {
  return machineOf(connectSetup(deps));
}

function machineOf(connect: ReturnType<typeof connectSetup>) {
  return connect.createMachine({
    id: 'connectPayments',
    initial: 'linkAccount',
    context: ({ input }) => ({ ...input, connectionId: randomUUID(), attempts: 0, last4: null }),
    states: {
      linkAccount: {
        tags: ['baton.input'],
        meta: { 'baton.input': { key: 'link' } },
        on: {
          'answer.link.accept': {
            target: 'checking',
            actions: assign({ attempts: ({ context }) => context.attempts + 1 }),
          },
          'answer.link.decline': 'cancelled',
          'answer.link.cancel': 'cancelled',
        },
      },
      checking: {
        invoke: {
          src: 'lookupSecret',
          input: ({ context }) => ({ connectionId: context.connectionId }),
          onDone: [
            {
              guard: ({ event }) => event.output !== undefined,
              target: 'connected',
              actions: assign({ last4: ({ event }) => event.output!.last4 }),
            },
            { target: 'linkAccount' },
          ],
          onError: 'failed',
        },
      },
      connected: {
        type: 'final',
        output: ({ context }) => `Connected your ${context.provider} account (key ending in ${context.last4}).`,
      },
      cancelled: {
        type: 'final',
        output: ({ context }) => `Connecting ${context.provider} cancelled: no key was stored.`,
      },
      failed: {
        type: 'final',
        output: ({ context }) => ({
          content: [{ type: 'text', text: `Could not check the vault for your ${context.provider} key.` }],
          isError: true,
        }),
      },
    },
  });
}

export function createConnectPaymentsTool(deps: ConnectPaymentsDeps) {
  const connect = connectSetup(deps);
  return connect.defineTool({
    name: 'connect-payments',
    title: 'Connect a payment provider',
    description:
      'Link a payment provider account. The secret key is entered on a secure page (URL elicitation), never in the chat; the tool finishes once the key is in the vault.',
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    machine: machineOf(connect),
    exampleArguments: { provider: 'stripe' },
    // The docs' example has no one to type a key into the page: the vault answers as if they had.
    exampleActors: { lookupSecret: fromPromise(async () => ({ last4: '4242' })) },
  });
}

import { describePaths, done, fail } from '../../../server/testing/index.js';
import { createConnectPaymentsTool } from '../../../machines/examples/connect-payments.js';
import { createMemoryVault } from '../../../machines/examples/secret-vault.js';

const connectPayments = () =>
  createConnectPaymentsTool({ vault: createMemoryVault(), pageUrl: (ref) => `http://127.0.0.1/vault/${ref}` });

describePaths(connectPayments(), {
  // The key not there yet asks again; the vault may fail.
  outcomes: { lookupSecret: [done(undefined), done({ last4: '4242' }), fail(new Error('vault down'))] },
});

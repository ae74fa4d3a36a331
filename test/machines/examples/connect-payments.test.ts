import { describePaths } from '../../../server/testing/index.js';
import { createConnectPaymentsTool } from '../../../machines/examples/connect-payments.js';
import { createMemoryVault } from '../../../machines/examples/secret-vault.js';

describePaths(
  createConnectPaymentsTool({ vault: createMemoryVault(), pageUrl: (ref) => `http://127.0.0.1/vault/${ref}` }),
);

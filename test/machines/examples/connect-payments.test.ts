import { expect } from 'chai';
import { describePaths, done, fail } from '../../../server/testing/index.js';
import { createConnectPaymentsTool } from '../../../machines/examples/connect-payments.js';
import { createMemoryVault } from '../../../machines/examples/secret-vault.js';
import { REFUSALS, refuseAt, resultText } from './refusals.js';

const connectPayments = () =>
  createConnectPaymentsTool({ vault: createMemoryVault(), pageUrl: (ref) => `http://127.0.0.1/vault/${ref}` });

describePaths(connectPayments(), {
  // The key not there yet asks again; the vault may fail.
  outcomes: { lookupSecret: [done(undefined), done({ last4: '4242' }), fail(new Error('vault down'))] },
});

describe('connect-payments: declining or cancelling looks nothing up', () => {
  for (const refusal of REFUSALS) {
    it(`link: ${refusal().action}`, async () => {
      const { run, effects } = await refuseAt(connectPayments(), 'link', refusal);
      expect(effects).to.deep.equal({ lookupSecret: 0 });
      expect(run.asked).to.deep.equal(['link']);
      expect(resultText(run)).to.include('no key was stored');
    });
  }
});

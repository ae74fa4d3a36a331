import { expect } from 'chai';
import { FlowEngine, openPageReference } from '../../../server/engine/index.js';
import { provisionDatabaseTool } from '../../../machines/examples/provision-database.js';
import { createConnectPaymentsTool } from '../../../machines/examples/connect-payments.js';
import { createMemoryVault } from '../../../machines/examples/secret-vault.js';
import { testKeyRing } from '../fixtures/keys.js';
import {
  CANCEL,
  DECLINE,
  Driver,
  accept,
  expectAsked,
  expectComplete,
  expectEngineError,
  messageOf,
} from '../fixtures/flow.js';
import { assistantTool, fallbackTool } from '../fixtures/machines.js';

import { releaseDriver } from '../fixtures/engines.js';

describe('FlowEngine: kinds of questions', () => {
  describe('client capabilities', () => {
    it('fails with missing_capability naming elicitation when the client declared none', async () => {
      const { driver } = releaseDriver();
      const error = await expectEngineError(driver.run({ caps: {} }), 'missing_capability');
      expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { form: {} } } });
      await expectEngineError(driver.run({ caps: { sampling: {}, roots: {} } }), 'missing_capability');
    });

    it('checks capabilities on a resumed round too', async () => {
      const { driver } = releaseDriver();
      const first = await driver.ask();
      const error = await expectEngineError(
        driver.answer(first, { window: accept({ window: 'now' }) }, { caps: {} }),
        'missing_capability',
      );
      expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { form: {} } } });
    });

    it('treats elicitation: {} as form support', async () => {
      const { driver } = releaseDriver();
      expectAsked(await driver.run({ caps: { elicitation: {} } }), ['window']);
      expectAsked(await driver.run({ caps: { elicitation: { form: {} } } }), ['window']);
    });

    describe('a URL question (connect-payments)', () => {
      function paymentsDriver() {
        const vault = createMemoryVault();
        const keyRing = testKeyRing();
        const tool = createConnectPaymentsTool({ vault, pageUrl: (ref) => `https://pay.example/vault/${ref}` });
        /** The connection the page reference in `url` is for, as the page learns it. */
        const connectionOf = (url: string) => openPageReference(url.split('/').at(-1), keyRing)!.subject;
        return { vault, connectionOf, driver: new Driver(new FlowEngine({ keyRing }), tool, { provider: 'stripe' }) };
      }

      for (const caps of [{ elicitation: {} }, { elicitation: { form: {} } }, {}]) {
        it(`fails with missing_capability naming elicitation.url for ${JSON.stringify(caps)}`, async () => {
          const error = await expectEngineError(paymentsDriver().driver.run({ caps }), 'missing_capability');
          expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { url: {} } } });
        });
      }

      it('asks with mode url when the client declared elicitation.url', async () => {
        const asked = await paymentsDriver().driver.ask({ caps: { elicitation: { url: {} } } });
        expect(Object.keys(asked.inputRequests)).to.deep.equal(['link']);
        expect(asked.inputRequests.link?.method).to.equal('elicitation/create');
        expect(asked.inputRequests.link?.params).to.include({ mode: 'url' });
        expect(asked.inputRequests.link?.params?.url).to.match(/^https:\/\/pay\.example\/vault\/p1\.[\w-]+\.[\w-]+$/);
      });

      it('asks again until the page has done its work, then completes', async () => {
        const { vault, connectionOf, driver } = paymentsDriver();
        const first = await driver.ask();
        const url = first.inputRequests.link?.params?.url as string;
        const again = expectAsked(await driver.answer(first, { link: { action: 'accept' } }), ['link']);
        expect(connectionOf(again.inputRequests.link?.params?.url as string)).to.equal(connectionOf(url));
        expect(messageOf(again.inputRequests.link)).to.not.equal(messageOf(first.inputRequests.link));
        await vault.store(connectionOf(url), 'sk_test_1234567890');
        const output = expectComplete(await driver.answer(again, { link: { action: 'accept' } }));
        expect(output).to.be.a('string').and.include('7890');
      });

      it('never shows the secret the page stored, only its last four characters', async () => {
        const { vault, connectionOf, driver } = paymentsDriver();
        const first = await driver.ask();
        const secret = 'sk_live_0123456789SECRET';
        await vault.store(connectionOf(first.inputRequests.link?.params?.url as string), secret);
        const output = expectComplete(await driver.answer(first, { link: { action: 'accept' } }));
        expect(JSON.stringify(output)).to.include('CRET');
        expect(JSON.stringify(output)).to.not.include(secret.slice(0, -4));
      });
    });
  });

  describe('parallel questions (provision-database)', () => {
    function provisionDriver() {
      return new Driver(new FlowEngine({ keyRing: testKeyRing() }), provisionDatabaseTool, { project: 'atlas' });
    }

    it('asks size and region in one round, in document order', async () => {
      const asked = await provisionDriver().ask();
      expect(Object.keys(asked.inputRequests)).to.deep.equal(['size', 'region']);
      expect(Object.values(asked.inputRequests).map((r) => r.method)).to.deep.equal([
        'elicitation/create',
        'elicitation/create',
      ]);
    });

    it('asks only the unanswered question again when one of the two is answered', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const regionOnly = expectAsked(await driver.answer(first, { size: accept({ size: 'small' }) }), ['region']);
      expect(messageOf(regionOnly.inputRequests.region)).to.equal(messageOf(first.inputRequests.region));
      const confirm = expectAsked(await driver.answer(regionOnly, { region: accept({ region: 'eu-west' }) }), [
        'confirm',
      ]);
      expect(messageOf(confirm.inputRequests.confirm)).to.include('small').and.include('eu-west');
    });

    it('re-asks only the invalid one of two answers', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const next = expectAsked(
        await driver.answer(first, { size: accept({ size: 'huge' }), region: accept({ region: 'us-east' }) }),
        ['size'],
      );
      expect(messageOf(next.inputRequests.size)).to.not.equal(messageOf(first.inputRequests.size));
    });

    it('takes both answers in one round, re-asks the region the check refused, and completes', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const refused = expectAsked(
        await driver.answer(first, { size: accept({ size: 'large' }), region: accept({ region: 'ap-south' }) }),
        ['region'],
      );
      expect(messageOf(refused.inputRequests.region)).to.not.equal(messageOf(first.inputRequests.region));
      const confirm = expectAsked(await driver.answer(refused, { region: accept({ region: 'eu-west' }) }), ['confirm']);
      expect(messageOf(confirm.inputRequests.confirm)).to.include('large').and.include('eu-west');
      expect(expectComplete(await driver.answer(confirm, { confirm: accept({ confirm: true }) }))).to.deep.equal({
        project: 'atlas',
        size: 'large',
        region: 'eu-west',
        databaseUrl: 'postgres://atlas.eu-west.db.internal/large',
      });
    });

    it('ends in the cancelled output when one of the two questions is declined', async () => {
      const driver = provisionDriver();
      const first = await driver.ask();
      const output = expectComplete(await driver.answer(first, { size: accept({ size: 'small' }), region: DECLINE }));
      expect(output).to.be.a('string').and.include('cancelled');
      const output2 = expectComplete(
        await driver.answer(first, { size: CANCEL, region: accept({ region: 'eu-west' }) }),
      );
      expect(output2).to.be.a('string').and.include('cancelled');
    });

    it('names the capability once when both questions need it', async () => {
      const error = await expectEngineError(provisionDriver().run({ caps: {} }), 'missing_capability');
      expect(error.data).to.deep.equal({ requiredCapabilities: { elicitation: { form: {} } } });
    });
  });

  describe('sampling and roots', () => {
    const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'A short summary.' }, model: 'test-model' };
    const ROOTS = { roots: [{ uri: 'file:///work/a', name: 'a' }, { uri: 'file:///work/b' }] };

    function assistantDriver(extra: Record<string, unknown> = {}) {
      return new Driver(new FlowEngine({ keyRing: testKeyRing() }), assistantTool(extra), { topic: 'tides' });
    }

    it('asks sampling/createMessage with the request computed from context', async () => {
      const asked = await assistantDriver().ask({ caps: { sampling: {} } });
      expect(asked.inputRequests).to.deep.equal({
        summary: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise tides' } }], maxTokens: 64 },
        },
      });
    });

    it('fails with missing_capability naming sampling when the client has none', async () => {
      const error = await expectEngineError(
        assistantDriver().run({ caps: { elicitation: {}, roots: {} } }),
        'missing_capability',
      );
      expect(error.data).to.deep.equal({ requiredCapabilities: { sampling: {} } });
    });

    it('needs sampling.tools when the request offers tools', async () => {
      const driver = assistantDriver({ tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] });
      const error = await expectEngineError(driver.run({ caps: { sampling: {} } }), 'missing_capability');
      expect(error.data).to.deep.equal({ requiredCapabilities: { sampling: { tools: {} } } });
      expectAsked(await driver.run({ caps: { sampling: { tools: {} } } }), ['summary']);
    });

    it('delivers the sampling result, asks roots/list, delivers the roots and completes', async () => {
      const driver = assistantDriver();
      const first = await driver.ask();
      const roots = expectAsked(await driver.answer(first, { summary: SAMPLED }), ['roots']);
      expect(roots.inputRequests.roots).to.deep.equal({ method: 'roots/list', params: {} });
      expect(expectComplete(await driver.answer(roots, { roots: ROOTS }))).to.deep.equal({
        summary: SAMPLED.content,
        model: 'test-model',
        roots: ['file:///work/a', 'file:///work/b'],
      });
    });

    it('fails with missing_capability naming roots when the client has none', async () => {
      const driver = assistantDriver();
      const first = await driver.ask();
      const error = await expectEngineError(
        driver.answer(first, { summary: SAMPLED }, { caps: { sampling: {} } }),
        'missing_capability',
      );
      expect(error.data).to.deep.equal({ requiredCapabilities: { roots: {} } });
    });

    for (const [label, response] of [
      ['without a model', { role: 'assistant', content: { type: 'text', text: 'x' } }],
      ['without content', { role: 'assistant', model: 'm' }],
      ['as an elicitation result', { action: 'accept', content: {} }],
      ['as a string', 'summary'],
    ] as const) {
      it(`fails with invalid_responses for a sampling result ${label}`, async () => {
        const driver = assistantDriver();
        await expectEngineError(driver.answer(await driver.ask(), { summary: response }), 'invalid_responses');
      });
    }

    for (const [label, response] of [
      ['without roots', {}],
      ['with a root without uri', { roots: [{ name: 'a' }] }],
      ['with roots that are not an array', { roots: 'file:///' }],
      ['as a bare array', [{ uri: 'file:///' }]],
    ] as const) {
      it(`fails with invalid_responses for a roots result ${label}`, async () => {
        const driver = assistantDriver();
        const roots = expectAsked(await driver.answer(await driver.ask(), { summary: SAMPLED }));
        await expectEngineError(driver.answer(roots, { roots: response }), 'invalid_responses');
      });
    }
  });

  describe('questions the client cannot take (onUnsupported)', () => {
    const driver = () => new Driver(new FlowEngine({ keyRing: testKeyRing() }), fallbackTool, {});

    it('asks normally when the client declared the capability', async () => {
      expectAsked(await driver().run({ caps: { elicitation: {} } }), ['choice']);
    });

    it('takes the fallback and asks the next question in the same round', async () => {
      const asked = expectAsked(await driver().run({ caps: { roots: {} } }), ['roots']);
      expect(asked.inputRequests.roots).to.deep.equal({ method: 'roots/list', params: {} });
    });

    it('follows fallbacks until the flow finishes', async () => {
      expect(expectComplete(await driver().run({ caps: {} }))).to.equal('defaulted');
    });

    it('still refuses with missing_capability a question that has no fallback', async () => {
      await expectEngineError(releaseDriver().driver.run({ caps: { roots: {} } }), 'missing_capability');
    });
  });
});

import { expect } from 'chai';
import { callTool, rpc } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';

/** The served examples' names, sorted: derived, so adding an example breaks no test here. */
const exampleNames = () =>
  exampleTools({ publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() })
    .map((tool) => tool.name)
    .sort();

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** Round-trips a result through JSON text, as a real client would, and returns its result. */
function result(response: { status: number; body: any }) {
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  expect(response.body.error, JSON.stringify(response.body.error)).to.equal(undefined);
  return JSON.parse(JSON.stringify(response.body.result));
}

function text(res: any): string {
  return res.content.map((block: { text?: string }) => block.text ?? '').join('\n');
}

describe('example tools over HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** The next round: the same call again, with the previous round's requestState and these answers. */
  async function answer(
    tool: string,
    args: Record<string, unknown>,
    previous: { requestState: string },
    inputResponses: Record<string, unknown>,
    options: Parameters<typeof callTool>[4] = {},
  ) {
    return result(
      await callTool(server.url, tool, args, { requestState: previous.requestState, inputResponses }, options),
    );
  }

  describe('tools/list and server/discover', () => {
    it('lists the example tools in a deterministic order with caching hints', async () => {
      const res = result(await rpc(server.url, 'tools/list'));
      expect(res.tools.map((t: { name: string }) => t.name)).to.deep.equal(exampleNames());
      expect(res.resultType).to.equal('complete');
      expect(res.ttlMs).to.be.a('number').at.least(0);
      expect(res.cacheScope).to.equal('public');
      expect(res._meta['io.modelcontextprotocol/serverInfo']).to.include({ name: 'baton' });
      for (const tool of res.tools) {
        expect(tool.inputSchema.type).to.equal('object');
        expect(tool.description).to.be.a('string').and.not.empty;
      }
    });

    it('discovers versions, capabilities and caching hints', async () => {
      const res = result(await rpc(server.url, 'server/discover'));
      expect(res.supportedVersions).to.deep.equal(['2026-07-28']);
      expect(res.capabilities).to.have.property('tools');
      expect(res.capabilities).not.to.have.property('prompts');
      expect(res).to.include({ resultType: 'complete', cacheScope: 'public' });
      expect(res.ttlMs).to.be.a('number');
      expect(res._meta['io.modelcontextprotocol/serverInfo'].version).to.be.a('string');
    });

    it('pages tools/list with cursors any instance can continue, and refuses a forged cursor', async () => {
      const paged = await startTestServer({ pageSize: 2 });
      try {
        const first = result(await rpc(paged.url, 'tools/list'));
        expect(first.tools).to.have.length(2);
        expect(first.nextCursor).to.be.a('string').and.not.empty;
        // Independent servers continue the listing from each cursor, to the end.
        const names = first.tools.map((t: { name: string }) => t.name);
        let cursor = first.nextCursor;
        while (cursor) {
          const other = await startTestServer({ pageSize: 2 });
          try {
            const page = result(await rpc(other.url, 'tools/list', { cursor }));
            expect(page.tools.length).to.be.within(1, 2);
            expect(page.cacheScope).to.equal(first.cacheScope);
            names.push(...page.tools.map((t: { name: string }) => t.name));
            cursor = page.nextCursor;
          } finally {
            await other.close();
          }
        }
        expect(names).to.deep.equal(exampleNames());
        const forged = await rpc(paged.url, 'tools/list', { cursor: 'bm9wZQ' }, { id: 99 });
        expect(forged.body.error.code).to.equal(-32602);
        expect(forged.body.id).to.equal(99);
      } finally {
        await paged.close();
      }
    });
  });

  describe('release', () => {
    const args = { service: 'billing', version: '2.4.0' };

    it('asks for a window, then confirmation, deploys and reports', async () => {
      const r1 = result(await callTool(server.url, 'release', args));
      expect(r1.resultType).to.equal('input_required');
      expect(Object.keys(r1.inputRequests)).to.deep.equal(['window']);
      expect(r1.inputRequests.window.method).to.equal('elicitation/create');
      expect(r1.inputRequests.window.params.requestedSchema.properties.window.enum).to.include('tonight');
      expect(r1).not.to.have.property('ttlMs');
      expect(r1).not.to.have.property('cacheScope');
      expect(r1.requestState).to.be.a('string');
      // docs/architecture.md quotes the example tools' state sizes.
      expect(r1.requestState.length).to.be.within(400, 700);

      const r2 = await answer('release', args, r1, { window: accept({ window: 'tonight' }) });
      expect(Object.keys(r2.inputRequests)).to.deep.equal(['confirm']);
      expect(r2.inputRequests.confirm.params.message).to.include('tonight');
      expect(r2.requestState).not.to.equal(r1.requestState);

      const r3 = await answer('release', args, r2, { confirm: accept({ confirm: true }) });
      expect(r3.resultType).to.equal('complete');
      expect(r3.isError).to.equal(undefined);
      expect(r3.structuredContent).to.include({ released: true, window: 'tonight', service: 'billing' });
      expect(JSON.parse(r3.content[0].text)).to.deep.equal(r3.structuredContent);
    });

    for (const action of ['decline', 'cancel'] as const) {
      it(`ends cleanly when the user chooses ${action} at the first question`, async () => {
        const r1 = result(await callTool(server.url, 'release', args));
        const r2 = await answer('release', args, r1, { window: { action } });
        expect(r2.resultType).to.equal('complete');
        expect(r2.isError).to.equal(undefined);
        expect(text(r2)).to.match(/cancelled: nothing was deployed/);
      });

      it(`ends cleanly when the user chooses ${action} at the confirmation`, async () => {
        const r1 = result(await callTool(server.url, 'release', args));
        const r2 = await answer('release', args, r1, { window: accept({ window: 'now' }) });
        const r3 = await answer('release', args, r2, { confirm: { action } });
        expect(r3.resultType).to.equal('complete');
        expect(text(r3)).to.match(/cancelled/);
      });
    }

    it('ends cleanly when the user answers "no" to the confirmation', async () => {
      const r1 = result(await callTool(server.url, 'release', args));
      const r2 = await answer('release', args, r1, { window: accept({ window: 'now' }) });
      const r3 = await answer('release', args, r2, { confirm: accept({ confirm: false }) });
      expect(text(r3)).to.match(/cancelled/);
    });

    it('asks again when the answer is missing', async () => {
      const r1 = result(await callTool(server.url, 'release', args));
      const r2 = await answer('release', args, r1, {});
      expect(r2.resultType).to.equal('input_required');
      expect(Object.keys(r2.inputRequests)).to.deep.equal(['window']);
      expect(r2.inputRequests.window).to.deep.equal(r1.inputRequests.window);
    });

    it('asks again, with a reason, when the answer does not fit the schema', async () => {
      const r1 = result(await callTool(server.url, 'release', args));
      const r2 = await answer('release', args, r1, { window: accept({ window: 'yesterday' }) });
      expect(Object.keys(r2.inputRequests)).to.deep.equal(['window']);
      expect(r2.inputRequests.window.params.message).to.not.equal(r1.inputRequests.window.params.message);
      expect(r2.inputRequests.window.params.message).to.include(r1.inputRequests.window.params.message);
      // The corrected answer then goes through.
      const r3 = await answer('release', args, r2, { window: accept({ window: 'weekend' }) });
      expect(Object.keys(r3.inputRequests)).to.deep.equal(['confirm']);
    });

    it('ignores answers to questions that were not asked this round', async () => {
      const r1 = result(await callTool(server.url, 'release', args));
      // `confirm` is a real key of the machine, but it was not asked in this round.
      const r2 = await answer('release', args, r1, { confirm: accept({ confirm: true }), bogus: accept({ x: 1 }) });
      expect(Object.keys(r2.inputRequests)).to.deep.equal(['window']);
    });

    it('takes answers sent ahead on a first call for the first question only', async () => {
      const ahead = result(
        await callTool(server.url, 'release', args, { inputResponses: { window: accept({ window: 'now' }) } }),
      );
      expect(Object.keys(ahead.inputRequests)).to.deep.equal(['confirm']);
      // The confirmation is not the first question: an answer to it ahead of time is ignored.
      const early = result(
        await callTool(server.url, 'release', args, { inputResponses: { confirm: accept({ confirm: true }) } }),
      );
      expect(Object.keys(early.inputRequests)).to.deep.equal(['window']);
    });
  });

  describe('provision-database', () => {
    const args = { project: 'atlas' };

    it('asks size and region in one round, then confirms and provisions', async () => {
      const r1 = result(await callTool(server.url, 'provision-database', args));
      expect(Object.keys(r1.inputRequests)).to.deep.equal(['size', 'region']);
      expect(r1.requestState.length).to.be.within(400, 700);
      const r2 = await answer('provision-database', args, r1, {
        size: accept({ size: 'small' }),
        region: accept({ region: 'eu-west' }),
      });
      expect(Object.keys(r2.inputRequests)).to.deep.equal(['confirm']);
      const r3 = await answer('provision-database', args, r2, { confirm: accept({ confirm: true }) });
      expect(r3.structuredContent).to.include({ project: 'atlas', size: 'small', region: 'eu-west' });
    });

    it('asks only the unanswered region when one parallel answer is missing', async () => {
      const r1 = result(await callTool(server.url, 'provision-database', args));
      const r2 = await answer('provision-database', args, r1, { size: accept({ size: 'medium' }) });
      expect(Object.keys(r2.inputRequests)).to.deep.equal(['region']);
    });

    it('asks the region again with the reason when the check rejects the pair, keeping the size', async () => {
      const r1 = result(await callTool(server.url, 'provision-database', args));
      const r2 = await answer('provision-database', args, r1, {
        size: accept({ size: 'large' }),
        region: accept({ region: 'ap-south' }),
      });
      expect(Object.keys(r2.inputRequests)).to.deep.equal(['region']);
      expect(r2.inputRequests.region.params.message).to.match(/not offered in ap-south/);
      const r3 = await answer('provision-database', args, r2, { region: accept({ region: 'us-east' }) });
      expect(r3.inputRequests.confirm.params.message).to.include('large').and.include('us-east');
    });

    it('ends cleanly when one of the parallel questions is declined', async () => {
      const r1 = result(await callTool(server.url, 'provision-database', args));
      const r2 = await answer('provision-database', args, r1, {
        size: accept({ size: 'small' }),
        region: { action: 'decline' },
      });
      expect(r2.resultType).to.equal('complete');
      expect(text(r2)).to.match(/cancelled/);
    });
  });

  describe('connect-payments', () => {
    const args = { provider: 'stripe' };
    const caps = { capabilities: { elicitation: { form: {}, url: {} } } };

    it('sends the user to a page by URL, and finishes on the retry once the key is in the vault', async () => {
      const r1 = result(await callTool(server.url, 'connect-payments', args, {}, caps));
      const link = r1.inputRequests.link;
      expect(link.method).to.equal('elicitation/create');
      expect(link.params.mode).to.equal('url');
      expect(link.params).not.to.have.property('requestedSchema');
      // The URL carries a sealed page reference, never the connection id itself.
      expect(link.params.url).to.match(new RegExp(`^${server.origin}/vault/p1\\.`));
      expect(r1.requestState.length).to.be.within(400, 700);

      // Accepting before the key arrived: asked again, with a different message.
      const r2 = await answer('connect-payments', args, r1, { link: { action: 'accept' } }, caps);
      expect(r2.inputRequests.link.params.url).to.match(new RegExp(`^${server.origin}/vault/p1\\.`));
      expect(r2.inputRequests.link.params.message).to.not.equal(link.params.message);

      // The user submits the key on the page (served by this server), then continues.
      const page = await fetch(link.params.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'secret=sk_test_abcdefgh4242',
      });
      expect(page.status).to.equal(200);
      const r3 = await answer('connect-payments', args, r2, { link: { action: 'accept' } }, caps);
      expect(r3.resultType).to.equal('complete');
      expect(text(r3)).to.include('4242');
      // The secret never appears in anything the client sees.
      expect(JSON.stringify([r1, r2, r3])).not.to.include('sk_test_abcdefgh4242');
    });

    it('ends cleanly when the user declines to open the page', async () => {
      const r1 = result(await callTool(server.url, 'connect-payments', args, {}, caps));
      const r2 = await answer('connect-payments', args, r1, { link: { action: 'decline' } }, caps);
      expect(text(r2)).to.match(/cancelled/);
    });
  });
});

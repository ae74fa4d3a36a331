import { expect } from 'chai';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

describe('docs routes', () => {
  let server: RunningServer;
  before(async () => {
    const fixtures = conformanceFixtures();
    server = await startTestServer({ prompts: fixtures.prompts, resources: fixtures.resources });
  });
  after(() => server.close());

  const get = (path: string, base = server.origin) => fetch(`${base}${path}`);

  it('serves the index as HTML, linking every tool, prompt and resource', async () => {
    const response = await get('/docs');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    const html = await response.text();
    for (const name of ['collect-feedback', 'connect-payments', 'provision-database', 'release']) {
      expect(html).to.include(`href="/docs/tools/${name}"`);
    }
    expect(html).to.include('href="/docs/prompts/test_simple_prompt"');
    expect(html).to.include(`href="/docs/resources/${encodeURIComponent('test://static-text')}"`);
  });

  it('serves a tool page with its diagrams as Mermaid source, under a strict content policy', async () => {
    const response = await get('/docs/tools/release');
    expect(response.status).to.equal(200);
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).to.include("script-src 'self'").and.include("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    const html = await response.text();
    expect(html).to.include('data-diagram="state"').and.include('data-diagram="sequence"');
    expect(html).to.include('stateDiagram-v2').and.include('sequenceDiagram');
    expect(html).to.include('<script src="/docs/assets/mermaid.min.js"></script>');
  });

  it('serves a resource page by its encoded URI', async () => {
    const response = await get(`/docs/resources/${encodeURIComponent('test://template/{id}/data')}`);
    expect(response.status).to.equal(200);
    expect(await response.text()).to.include('resources/read test://template/123/data');
  });

  it('serves mermaid from its own dependencies, and the page script and style', async () => {
    const mermaid = await get('/docs/assets/mermaid.min.js');
    expect(mermaid.status).to.equal(200);
    expect(mermaid.headers.get('content-type')).to.match(/^application\/javascript/);
    expect((await mermaid.text()).length).to.be.greaterThan(1_000_000);
    expect((await get('/docs/assets/docs.js')).status).to.equal(200);
    expect((await get('/docs/assets/docs.css')).headers.get('content-type')).to.match(/^text\/css/);
  });

  it('answers 404 for an unknown tool or section', async () => {
    expect((await get('/docs/tools/nope')).status).to.equal(404);
    expect((await get('/docs/widgets/release')).status).to.equal(404);
  });

  it('is off with docs: false, and off by default behind an auth hook', async () => {
    const off = await startTestServer({ docs: false });
    const authed = await startTestServer({ authenticate: async () => ({ id: 'x', authenticated: true }) });
    const both = await startTestServer({ authenticate: async () => ({ id: 'x', authenticated: true }), docs: true });
    try {
      expect((await get('/docs', off.origin)).status).to.equal(404);
      expect((await get('/docs', authed.origin)).status).to.equal(404);
      expect((await get('/docs', both.origin)).status).to.equal(200);
    } finally {
      await Promise.all([off.close(), authed.close(), both.close()]);
    }
  });
});

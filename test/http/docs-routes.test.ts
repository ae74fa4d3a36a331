import { expect } from 'chai';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { renderTryItPanel, tryItData } from '../../server/docs-site/index.js';
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

  it('puts a Try it panel on tool pages only, with its data as JSON and no inline script', async () => {
    const response = await get('/docs/tools/provision-database');
    // The panel calls this origin's endpoint, and nothing else.
    expect(response.headers.get('content-security-policy')).to.include("connect-src 'self'");
    const html = await response.text();
    expect(html).to.include('<script src="/docs/assets/try-it.js"></script>');
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attributes, body] of scripts) {
      if (body!.trim() !== '') expect(attributes).to.include('type="application/json"');
    }
    const data = JSON.parse(/<script type="application\/json" id="try-it-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(data).to.include({ tool: 'provision-database', endpoint: '/mcp', auth: 'open' });
    expect(data.exampleArguments).to.deep.equal({ project: 'atlas' });
    expect(data.waitingStates).to.deep.equal({
      size: ['s_collect_size_asking'],
      region: ['s_collect_region_asking'],
      confirm: ['s_confirm'],
    });
    const prompt = await get('/docs/prompts/test_simple_prompt');
    expect(prompt.headers.get('content-security-policy')).not.to.include('connect-src');
    expect(await prompt.text()).not.to.include('try-it');
  });

  it('keeps data that looks like markup inert inside the panel data', async () => {
    const tool = server.baton.registry.list().find((t) => t.name === 'release')!;
    const html = renderTryItPanel({
      ...tryItData(tool, { endpoint: '/mcp', auth: 'open' }),
      exampleArguments: { service: '</script><script>alert(1)</script>' },
    });
    expect(html).not.to.include('</script><script>');
    expect(html.match(/<\/script>/g)).to.have.length(1);
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
    const tryIt = await get('/docs/assets/try-it.js');
    expect(tryIt.headers.get('content-type')).to.match(/^application\/javascript/);
    expect(await tryIt.text()).to.include('try-it-data');
    expect(await (await get('/docs/assets/try-it-forms.js')).text()).to.include('batonTryItForms');
    expect(await (await get('/docs/assets/try-it-wire.js')).text()).to.include('batonTryItWire');
    expect(await (await get('/docs/assets/try-it-task.js')).text()).to.include('batonTryItTask');
    expect((await get('/docs/assets/try-it.css')).headers.get('content-type')).to.match(/^text\/css/);
  });

  it('serves the ELK layout modules by their exact names, and nothing else from that folder', async () => {
    const html = await (await get('/docs/tools/release')).text();
    expect(html).to.include('<script src="/docs/assets/diagram-view.js"></script>');
    const view = await get('/docs/assets/diagram-view.js');
    expect(view.headers.get('content-type')).to.match(/^application\/javascript/);
    expect(await view.text()).to.include('layout-elk/mermaid-layout-elk.esm.min.mjs');
    const entry = await get('/docs/assets/layout-elk/mermaid-layout-elk.esm.min.mjs');
    expect(entry.status).to.equal(200);
    // A module script needs a JavaScript MIME type, or the browser refuses it (nosniff).
    expect(entry.headers.get('content-type')).to.match(/^text\/javascript/);
    // Every chunk the entry imports (by relative URL) is served too.
    const chunk = /from\s*"\.\/(chunks\/[^"]+\.mjs)"/.exec(await entry.text())![1]!;
    expect((await get(`/docs/assets/layout-elk/${chunk}`)).status).to.equal(200);
    const folder = '/docs/assets/layout-elk/chunks/mermaid-layout-elk.esm.min';
    // Only modules: not their source maps (which exist beside them), not a path out of the folder.
    const map = `${chunk.split('/').pop()!}.map`;
    for (const name of ['nope.mjs', map, '..%2F..%2Fpackage.json', '%2e%2e%2flayouts.d.ts']) {
      expect((await get(`${folder}/${name}`)).status, name).to.equal(404);
    }
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
      // The panel goes with the docs: no page, no script.
      expect((await get('/docs/tools/release', off.origin)).status).to.equal(404);
      expect((await get('/docs/assets/try-it.js', off.origin)).status).to.equal(404);
      expect((await get('/docs/assets/try-it.js', authed.origin)).status).to.equal(404);
      expect((await get('/docs', both.origin)).status).to.equal(200);
    } finally {
      await Promise.all([off.close(), authed.close(), both.close()]);
    }
  });
});

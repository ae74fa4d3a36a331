/**
 * Icons, scopes and `_meta` on the docs pages: the page model carries the icons, both renderers
 * show them beside the title, the page says which scopes a caller needs and what `_meta` clients
 * get, and the served page lets the icons' origin load (and nothing more).
 */
import { expect } from 'chai';
import { DocsSite, renderHtml, renderMarkdown } from '../../server/docs-site/index.js';
import { defineTool, respondWith } from '../../server/engine/index.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const ICON = { src: 'https://cdn.example.com/icons/deploy.png', mimeType: 'image/png', sizes: ['48x48'] };

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys a service.',
  inputSchema: { type: 'object' },
  scopes: ['deploy:write'],
  icons: [ICON],
  _meta: { 'com.example/owner': 'platform' },
  machine: respondWith('deploy', () => 'deployed'),
});

describe('catalogue fields on the docs pages', () => {
  it('shows the icons beside the title, the scopes and the _meta, in Markdown and HTML', async () => {
    const page = (await new DocsSite({ tools: [deploy] }).page('tool', 'deploy'))!;
    expect(page.icons).to.deep.equal([ICON]);
    const markdown = renderMarkdown(page);
    expect(markdown).to.include(`# deploy\n\n![icon](${ICON.src})`);
    expect(markdown).to.include('Scopes: `deploy:write`.');
    expect(markdown).to.include('"com.example/owner": "platform"');
    const html = renderHtml(page, '/docs');
    expect(html).to.include(`<h1><img class="icon" src="${ICON.src}" alt="">deploy</h1>`);
    expect(html).to.include('<code>deploy:write</code>');
  });

  describe('served', () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ tools: [deploy], docs: true });
    });
    after(() => server.close());

    it('lets the page load images from the icons origin only', async () => {
      const response = await fetch(`${server.origin}/docs/tools/deploy`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-security-policy')).to.include(
        "img-src 'self' data: https://cdn.example.com;",
      );
      expect(await response.text()).to.include(`src="${ICON.src}"`);
    });
  });
});

import { expect } from 'chai';
import {
  DocsSite,
  escapeHtml,
  markdownFileName,
  pagePath,
  renderHtml,
  renderMarkdown,
  type DocPage,
} from '../../server/docs-site/index.js';
import { defineTool, respondWith } from '../../server/engine/index.js';
import { releaseTool } from '../../machines/examples/release.js';
import { provisionDatabaseTool } from '../../machines/examples/provision-database.js';
import { collectFeedbackTool } from '../../machines/examples/collect-feedback.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';

function headings(page: DocPage): string[] {
  return page.blocks.flatMap((b) => (b.type === 'heading' ? [b.text] : []));
}

describe('doc pages', () => {
  const site = new DocsSite({ tools: [releaseTool, collectFeedbackTool] });

  describe('a tool with further example runs (examples: [...])', () => {
    it('shows each run as its own conversation after the main one, with its own answers', async () => {
      const page = (await new DocsSite({ tools: [provisionDatabaseTool] }).page('tool', 'provision-database'))!;
      const title = provisionDatabaseTool.examples![0]!.title;
      const order = ['Conversation', `Example: ${title}`, 'First round on the wire'].map((h) =>
        headings(page).indexOf(h),
      );
      expect(order[0]).to.be.greaterThan(-1);
      expect(order).to.deep.equal([...order].sort((a, b) => a - b));
      const at = page.blocks.findIndex((b) => b.type === 'heading' && b.text === `Example: ${title}`);
      const diagram = page.blocks.slice(at).find((b) => b.type === 'diagram');
      expect(diagram).to.include({ kind: 'sequence' });
      // The example's second region answer is asked for only because its first was refused.
      expect(diagram && diagram.type === 'diagram' && diagram.source).to.include('accept {"region":"eu-west"}');
      expect(diagram && diagram.type === 'diagram' && diagram.source).to.include('Large databases are not offered');
    });
  });

  describe('a tool page', () => {
    let page: DocPage;
    before(async () => {
      page = (await site.page('tool', 'release'))!;
    });

    it('has the input, states, conversation, wire example and decline sections in order', () => {
      expect(page.title).to.equal('release');
      expect(headings(page)).to.deep.equal([
        'Input',
        'States',
        'Conversation',
        // release's one further example (`examples`), after the main one.
        'Example: a breaking release asks for its changelog before the confirmation',
        'First round on the wire',
        'Declining and cancelling',
      ]);
      expect(page.blocks.filter((b) => b.type === 'diagram').map((b) => b.type === 'diagram' && b.kind)).to.deep.equal([
        'state',
        'sequence',
        'sequence',
      ]);
    });

    it('shows the input schema as a table and the questions with where each answer leads', () => {
      const markdown = renderMarkdown(page);
      expect(markdown).to.include('| `service` | string (≥ 1 chars) | yes | Service to release |');
      expect(markdown).to.include(
        '| `confirm` | form | `confirm` | Deploy billing 2.4.0 (now)? (in the example) — confirm: boolean (single use: a resent answer never runs its effect twice) | accept → `deploying` if confirmed, `cancelled` otherwise; decline → `cancelled`; cancel → `cancelled` |',
      );
    });

    it('shows the first round as real JSON with the requestState shortened', () => {
      const code = page.blocks
        .filter((b) => b.type === 'code')
        .map((b) => (b.type === 'code' ? JSON.parse(b.source) : {}));
      expect(code[0].method).to.equal('tools/call');
      expect(code[0].params.arguments).to.deep.equal({ service: 'billing', version: '2.4.0' });
      expect(code[1].result.resultType).to.equal('input_required');
      expect(code[1].result.requestState).to.match(/^b1\.docs\..{16}…$/);
    });

    it('says how declining and cancelling each question ends, from real runs', () => {
      const markdown = renderMarkdown(page);
      expect(markdown).to.include(
        '| `window` | Release of billing 2.4.0 cancelled: nothing was deployed. (round 2) | the same |',
      );
    });

    it('is built once and kept', async () => {
      expect(await site.page('tool', 'release')).to.equal(page);
      expect(site.page('tool', 'nope')).to.equal(undefined);
      expect(site.page('prompt', 'release')).to.equal(undefined);
    });
  });

  it('says so when a tool asks nothing that can be declined', async () => {
    const simple = defineTool({
      name: 'simple',
      description: 'Answers at once.',
      inputSchema: { type: 'object' },
      machine: respondWith('simple', () => 'done'),
    });
    const page = (await new DocsSite({ tools: [simple] }).page('tool', 'simple'))!;
    expect(renderMarkdown(page)).to.include('This example asks nothing the user could decline.');
    expect(renderMarkdown(page)).to.include('No arguments.');
  });

  it('documents prompts and resources, with resource URIs as encoded slugs', async () => {
    const fixtures = conformanceFixtures();
    const all = new DocsSite({ tools: [], prompts: fixtures.prompts, resources: fixtures.resources });
    const index = renderMarkdown(all.index());
    expect(index).to.include('## Prompts').and.include('## Resources');
    const slug = encodeURIComponent('test://template/{id}/data');
    const page = (await all.page('resource', slug))!;
    expect(renderMarkdown(page)).to.include('URI template `test://template/{id}/data`');
    expect(markdownFileName(page.ref)).to.equal('resource-test_template_id_data.md');
    expect(pagePath(page.ref, '/docs')).to.equal(`/docs/resources/${slug}`);
  });

  describe('rendering', () => {
    const page: DocPage = {
      ref: { kind: 'tool', slug: 'x' },
      title: 'x <script>',
      blocks: [
        {
          type: 'paragraph',
          content: ['a <b> & "c" *d* ', { code: 'it`s' }, ' ', { text: 'home', to: { kind: 'index' } }],
        },
        { type: 'table', header: ['h'], rows: [[['a | b']]] },
        { type: 'diagram', kind: 'state', source: 'stateDiagram-v2\n  a --> b : x <y>\n' },
      ],
    };

    it('escapes every piece of text in HTML, and sends diagrams as their source', () => {
      const html = renderHtml(page, '/docs');
      expect(html).to.include('<h1>x &#60;script&#62;</h1>');
      expect(html).to.include('a &#60;b&#62; &#38; &#34;c&#34; *d* <code>it`s</code> <a href="/docs">home</a>');
      expect(html).to.include('<pre class="mermaid-source">stateDiagram-v2\n  a --&#62; b : x &#60;y&#62;\n</pre>');
      expect(html).to.include('<script src="/docs/assets/mermaid.min.js"></script>');
      expect(html).not.to.include('<script>');
      expect(escapeHtml(`'`)).to.equal('&#39;');
    });

    it('escapes Markdown, keeps a table cell in one cell, and fences diagrams as mermaid', () => {
      const markdown = renderMarkdown(page);
      expect(markdown).to.include('# x \\<script\\>');
      expect(markdown).to.include('a \\<b\\> & "c" \\*d\\* ``it`s`` [home](index.md)');
      expect(markdown).to.include('| a \\| b |');
      expect(markdown).to.include('```mermaid\nstateDiagram-v2\n  a --> b : x <y>\n```');
      expect(markdown.startsWith('<!-- Generated by `npx baton docs`')).to.equal(true);
    });
  });
});

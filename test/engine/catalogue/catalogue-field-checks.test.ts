/** Start-up checks of scopes, icons and `_meta` on tools, prompts and resources. */
import { expect } from 'chai';
import {
  ConfigurationError,
  PromptRegistry,
  ResourceRegistry,
  ToolRegistry,
  definePrompt,
  defineResource,
  defineTool,
  respondWith,
  type CatalogueFields,
} from '../../../server/engine/index.js';

const tool = (fields: CatalogueFields) =>
  defineTool({
    name: 'tool',
    description: 'A tool.',
    inputSchema: { type: 'object' },
    machine: respondWith('tool', () => 'ok'),
    ...fields,
  });

function problemsOf(fields: CatalogueFields): string {
  try {
    new ToolRegistry([tool(fields)]);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigurationError);
    return (error as Error).message;
  }
  return '';
}

describe('catalogue field checks', () => {
  it('accepts what the schema allows', () => {
    expect(
      problemsOf({
        scopes: ['deploy:write', 'https://api.example.com/deploy'],
        icons: [
          { src: 'https://cdn.example.com/a.png', mimeType: 'image/png', sizes: ['48x48', 'any'], theme: 'dark' },
          { src: 'data:image/svg+xml;base64,PHN2Zy8+' },
        ],
        _meta: { 'com.example/owner': 'platform', plain: 1, 'io.modelcontextprotocol/ui': { x: true } },
      }),
    ).to.equal('');
  });

  it('refuses scopes that cannot travel in a challenge', () => {
    expect(problemsOf({ scopes: ['deploy write'] })).to.include('tool "tool": scope "deploy write"');
    expect(problemsOf({ scopes: ['say "hi"'] })).to.include('is not an OAuth scope token');
    expect(problemsOf({ scopes: [] })).to.include('non-empty array');
  });

  it('refuses icons clients could not load', () => {
    expect(problemsOf({ icons: [{ src: 'javascript:alert(1)' }] })).to.include('icon src');
    expect(problemsOf({ icons: [{ src: 'data:text/html,<b>' }] })).to.include('icon src');
    expect(problemsOf({ icons: [{ src: 'https://a.example/i.png', sizes: ['big'] }] })).to.include('icon sizes');
    expect(problemsOf({ icons: [{ src: 'https://a.example/i.png', theme: 'blue' as 'dark' }] })).to.include('theme');
  });

  it('refuses _meta keys outside the spec grammar and values that are not JSON', () => {
    expect(problemsOf({ _meta: { 'example.com/': 1 } })).to.equal('');
    expect(problemsOf({ _meta: { '-bad': 1 } })).to.include('_meta key "-bad"');
    expect(problemsOf({ _meta: { '1com.example/x': 1 } })).to.include('_meta key');
    expect(problemsOf({ _meta: { when: new Date() } })).to.include('plain JSON');
  });

  it('checks prompts and resources the same way', () => {
    const machine = respondWith('m', () => 'ok');
    expect(
      () => new PromptRegistry([definePrompt({ name: 'p', description: 'P.', machine, scopes: ['a b'] })]),
    ).to.throw(/prompt "p": scope "a b"/);
    expect(
      () => new ResourceRegistry([defineResource({ uri: 'x://y', name: 'y', machine, icons: [{ src: 'nope' }] })]),
    ).to.throw(/resource "x:\/\/y": an icon needs a src URL/);
  });
});

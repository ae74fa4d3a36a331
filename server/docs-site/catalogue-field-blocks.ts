/**
 * What a page says about an entry's catalogue fields (authoring/catalogue-fields.ts): the OAuth
 * scopes a caller needs and the `_meta` clients receive. Its icons go in the page's `icons`.
 */
import { code, type Block } from './doc-page.js';
import type { DocumentedFlow } from './documented-flow.js';

export function catalogueFieldBlocks(flow: DocumentedFlow): Block[] {
  const { scopes, _meta: meta } = flow.definition;
  const blocks: Block[] = [];
  if (scopes && scopes.length > 0) {
    blocks.push({
      type: 'paragraph',
      content: [
        'Scopes: ',
        ...scopes.flatMap((scope, i) => [...(i > 0 ? [', '] : []), code(scope)]),
        '. An OAuth access token without all of them does not see it listed, and is answered 403 insufficient_scope.',
      ],
    });
  }
  if (meta && Object.keys(meta).length > 0) {
    blocks.push(
      { type: 'paragraph', content: [code('_meta'), ' sent with it in the list:'] },
      { type: 'code', language: 'json', source: JSON.stringify(meta, null, 2) },
    );
  }
  return blocks;
}

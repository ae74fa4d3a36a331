/** test://static-text (conformance `resources-read-text`). */
import { defineResource, respondWith } from '../../server/engine/index.js';

export const staticTextResource = defineResource({
  uri: 'test://static-text',
  name: 'Static text',
  description: 'A fixed text resource.',
  mimeType: 'text/plain',
  machine: respondWith('staticTextResource', () => 'This is the content of the static text resource.'),
});

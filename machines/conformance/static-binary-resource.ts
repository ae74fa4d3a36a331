/** test://static-binary (conformance `resources-read-binary`). */
import { defineResource, respondWith } from '../../server/engine/index.js';
import { PNG_1X1 } from './media.js';

export const staticBinaryResource = defineResource({
  uri: 'test://static-binary',
  name: 'Static binary',
  description: 'A fixed PNG image.',
  mimeType: 'image/png',
  machine: respondWith('staticBinaryResource', () => ({ blob: PNG_1X1 })),
});

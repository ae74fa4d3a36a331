/**
 * test://watched-resource (conformance `resources-subscribe`, `resources-unsubscribe` on
 * 2025-11-25): the resource the suite subscribes to. A session may subscribe only to resources
 * the server serves, so the fixture serves it.
 */
import { defineResource, respondWith } from '../../server/engine/index.js';

export const watchedResource = defineResource({
  uri: 'test://watched-resource',
  name: 'Watched resource',
  description: 'A text resource clients subscribe to for updates.',
  mimeType: 'text/plain',
  machine: respondWith('watchedResource', () => 'This resource changes when the server says so.'),
});

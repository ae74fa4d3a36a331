/** test://template/{id}/data (conformance `resources-templates-read`). */
import { defineResourceTemplate, respondWith } from '../../server/engine/index.js';

export const templateDataResource = defineResourceTemplate({
  uriTemplate: 'test://template/{id}/data',
  name: 'Template data',
  description: 'JSON data for any id.',
  mimeType: 'application/json',
  completions: { id: ['123', '456', '789'] },
  machine: respondWith<{ id: string }>('templateDataResource', ({ id }) =>
    JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  ),
});

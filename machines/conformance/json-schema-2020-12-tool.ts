/**
 * json_schema_2020_12_tool: an input schema using 2020-12 keywords ($defs, $anchor, $ref,
 * composition, if/then/else), served verbatim (conformance `json-schema-2020-12`, unscored).
 */
import { defineTool, respondWith } from '../../server/engine/index.js';

export const jsonSchema202012Tool = defineTool({
  name: 'json_schema_2020_12_tool',
  description: 'Takes contact details described with JSON Schema 2020-12 keywords.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } } },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
  machine: respondWith<{ name?: string }>(
    'jsonSchema202012Tool',
    ({ name }) => `Contact details received for ${name ?? 'someone'}.`,
  ),
});

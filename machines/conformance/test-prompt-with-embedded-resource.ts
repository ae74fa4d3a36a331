/** test_prompt_with_embedded_resource: a resource message, then a text message (`prompts-get-embedded-resource`). */
import { definePrompt, respondWith } from '../../server/engine/index.js';

export const testPromptWithEmbeddedResource = definePrompt({
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt that embeds the resource it is given.',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  machine: respondWith<{ resourceUri: string }>('testPromptWithEmbeddedResource', ({ resourceUri }) => [
    {
      role: 'user',
      content: {
        type: 'resource',
        resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
      },
    },
    { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
  ]),
  exampleArguments: { resourceUri: 'test://example-resource' },
});

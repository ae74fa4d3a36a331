/** test_prompt_with_image: an image message, then a text message (`prompts-get-with-image`). */
import { definePrompt, respondWith } from '../../server/engine/index.js';
import { PNG_1X1 } from './media.js';

export const testPromptWithImage = definePrompt({
  name: 'test_prompt_with_image',
  description: 'A prompt that shows an image.',
  machine: respondWith('testPromptWithImage', () => [
    { role: 'user', content: { type: 'image', data: PNG_1X1, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
  ]),
});

/** test_simple_prompt: one user message (conformance `prompts-get-simple`). */
import { definePrompt, respondWith } from '../../server/engine/index.js';

export const testSimplePrompt = definePrompt({
  name: 'test_simple_prompt',
  description: 'A prompt with one fixed message.',
  machine: respondWith('testSimplePrompt', () => 'This is a simple prompt for testing.'),
});

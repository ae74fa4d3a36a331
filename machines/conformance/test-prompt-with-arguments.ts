/** test_prompt_with_arguments: two required arguments, with completions (`prompts-get-with-args`, `completion-complete`). */
import { definePrompt, respondWith } from '../../server/engine/index.js';

export const testPromptWithArguments = definePrompt({
  name: 'test_prompt_with_arguments',
  description: 'A prompt built from two arguments.',
  arguments: [
    { name: 'arg1', description: 'First argument', required: true, completions: ['test', 'testValue1', 'testing'] },
    { name: 'arg2', description: 'Second argument', required: true, completions: ['testValue2', 'other'] },
  ],
  machine: respondWith<{ arg1: string; arg2: string }>(
    'testPromptWithArguments',
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  ),
  exampleArguments: { arg1: 'a', arg2: 'b' },
});

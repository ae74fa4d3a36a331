/** test_audio_content: one audio block (conformance `tools-call-audio`). */
import { defineTool, respondWith } from '../../server/engine/index.js';
import { NO_ARGUMENTS, WAV_EMPTY } from './media.js';

export const testAudioContent = defineTool({
  name: 'test_audio_content',
  description: 'Returns audio (an empty WAV).',
  inputSchema: NO_ARGUMENTS,
  machine: respondWith('testAudioContent', () => ({
    content: [{ type: 'audio', data: WAV_EMPTY, mimeType: 'audio/wav' }],
  })),
});

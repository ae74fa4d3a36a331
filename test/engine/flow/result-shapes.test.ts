import { expect } from 'chai';
import { toPromptResult, toResourceContents } from '../../../server/engine/index.js';

describe('prompt and resource result shapes', () => {
  it('keeps a prompt result to role + content messages and an optional description', () => {
    const result = toPromptResult({
      description: 'd',
      messages: [{ role: 'assistant', content: { type: 'text', text: 'hi' }, extra: 1 }],
      resultType: 'input_required',
    });
    expect(result).to.deep.equal({
      description: 'd',
      messages: [{ role: 'assistant', content: { type: 'text', text: 'hi' } }],
    });
  });

  it('refuses prompt messages without a valid role or a typed content block', () => {
    for (const messages of [
      [{ role: 'system', content: { type: 'text', text: 'x' } }],
      [{ role: 'user', content: 'x' }],
      [null],
    ]) {
      expect(() => toPromptResult(messages), JSON.stringify(messages)).to.throw(TypeError);
    }
  });

  it('gives resource contents exactly one of text and blob, and only their fields', () => {
    expect(toResourceContents('test://a', 'text/plain', { text: 'x', resultType: 'bad' })).to.deep.equal([
      { uri: 'test://a', mimeType: 'text/plain', text: 'x' },
    ]);
    expect(toResourceContents('test://a', undefined, { blob: 'AA==' })).to.deep.equal([
      { uri: 'test://a', blob: 'AA==' },
    ]);
    expect(() => toResourceContents('test://a', undefined, { text: 'x', blob: 'AA==' })).to.throw(TypeError);
    expect(() => toResourceContents('test://a', undefined, { text: 7 })).to.throw(TypeError);
  });
});

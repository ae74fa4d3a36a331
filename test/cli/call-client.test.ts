import { expect } from 'chai';
import { decodeHeaderValue } from '../../server/http/standard-headers.js';
import { mcpHeaderValue } from '../../server/cli/call-client.js';

describe('mcpHeaderValue', () => {
  it('sends visible ASCII as it is', () => {
    expect(mcpHeaderValue('eu-west-1')).to.equal('eu-west-1');
    expect(mcpHeaderValue(42)).to.equal('42');
    expect(mcpHeaderValue(true)).to.equal('true');
  });

  it('encodes what a header cannot carry plainly, so the server decodes the same value', () => {
    for (const value of ['café', ' padded ', 'tab\there', '=?base64?abcd?=']) {
      const header = mcpHeaderValue(value);
      expect(header, value).to.match(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
      expect(decodeHeaderValue(header), value).to.equal(value);
    }
  });
});

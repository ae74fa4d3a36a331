import { expect } from 'chai';
import { checkJsonShape, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../server/protocol/json-limits.js';
import { ProtocolError } from '../../server/protocol/protocol-error.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const refusal = (text: string) => {
  try {
    checkJsonShape(text);
    return undefined;
  } catch (error) {
    expect(error).to.be.instanceOf(ProtocolError);
    return (error as ProtocolError).message;
  }
};

describe('checkJsonShape', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    expect(refusal(nested(MAX_JSON_DEPTH))).to.equal(undefined);
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).to.match(/nested more than 64 levels/);
    expect(refusal(`{"a":${nested(MAX_JSON_DEPTH)}}`)).to.match(/nested more than 64 levels/);
  });

  it(`accepts ${MAX_JSON_VALUES} values and refuses one more`, () => {
    const values = (count: number) => `[${Array.from({ length: count }, () => '0').join(',')}]`;
    expect(refusal(values(MAX_JSON_VALUES))).to.equal(undefined);
    expect(refusal(values(MAX_JSON_VALUES + 1))).to.match(/more than 50000 JSON values/);
  });

  it('does not count brackets and commas inside strings, whatever their escapes', () => {
    const noise = '[[[[,,,,{{{{'.repeat(20);
    const strings = [
      noise,
      `${noise}\\"${noise}`,
      `ends with a backslash \\\\`,
      `\\\\\\"${noise}`,
      `\u00e9\u{1f600}${noise}`,
    ];
    for (const value of strings) {
      const text = JSON.stringify({ a: value, b: [value, { c: value }] });
      expect(JSON.parse(text).a, text).to.equal(value);
      expect(refusal(text), text).to.equal(undefined);
    }
  });

  it('still sees structure right after a string that ends in escaped backslashes', () => {
    // "\\" is a complete string; the brackets after it are structure and must be counted.
    const text = `[${JSON.stringify('\\')},${nested(MAX_JSON_DEPTH)}]`;
    expect(JSON.parse(text)).to.be.an('array');
    expect(refusal(text)).to.match(/nested more than 64 levels/);
  });
});

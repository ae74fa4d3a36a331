import { expect } from 'chai';
import { LineSplitter, type Line } from '../../server/stdio/index.js';

function texts(lines: Line[]): Array<string | number> {
  return lines.map((line) => (line.kind === 'line' ? line.text : -line.bytes));
}

describe('LineSplitter', () => {
  it('splits chunks into lines and keeps an unfinished line for the next chunk', () => {
    const splitter = new LineSplitter(1024);
    expect(texts(splitter.push(Buffer.from('{"a":1}\n{"b"')))).to.deep.equal(['{"a":1}']);
    expect(texts(splitter.push(Buffer.from(':2}\n')))).to.deep.equal(['{"b":2}']);
  });

  it('decodes a multi-byte character split across two chunks', () => {
    const splitter = new LineSplitter(1024);
    const bytes = Buffer.from('"größe"\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "ö"
    expect(splitter.push(bytes.subarray(0, cut))).to.deep.equal([]);
    expect(texts(splitter.push(bytes.subarray(cut)))).to.deep.equal(['"größe"']);
  });

  it('strips a carriage return before the newline and skips blank lines', () => {
    const splitter = new LineSplitter(1024);
    expect(texts(splitter.push(Buffer.from('one\r\n\n  \r\ntwo\n')))).to.deep.equal(['one', 'two']);
  });

  it('reports an over-long line once, skips it to its newline, and reads the next', () => {
    const splitter = new LineSplitter(8);
    const first = splitter.push(Buffer.from('0123456789'));
    expect(first).to.have.length(1);
    expect(first[0]!.kind).to.equal('oversize');
    expect(splitter.push(Buffer.from('abcdef'))).to.deep.equal([]);
    expect(texts(splitter.push(Buffer.from('gh\nshort\n')))).to.deep.equal(['short']);
  });

  it('hands over a last line without newline at the end of input', () => {
    const splitter = new LineSplitter(1024);
    expect(splitter.push(Buffer.from('tail'))).to.deep.equal([]);
    expect(texts(splitter.end())).to.deep.equal(['tail']);
    expect(splitter.end()).to.deep.equal([]);
  });
});

import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ErrorCode, errorCatalogue } from '../../server/protocol/index.js';

describe('error catalogue', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\|\s*(-\d+)\s*\|\s*(\w+)\s*\|\s*(\d+)\s*\|/gm)].map((m) => ({
    code: Number(m[1]),
    name: m[2],
    httpStatus: Number(m[3]),
  }));

  it('documents every code the server can send, with its name and HTTP status', () => {
    expect(rows).to.deep.equal(errorCatalogue.map(({ code, name, httpStatus }) => ({ code, name, httpStatus })));
  });

  it('covers every code constant', () => {
    expect(errorCatalogue.map((e) => e.code).sort()).to.deep.equal(Object.values(ErrorCode).sort());
  });

  it('uses no code from the range reserved for the spec other than the three it defines', () => {
    const reserved = errorCatalogue.filter((e) => e.code <= -32020 && e.code >= -32099).map((e) => e.code);
    expect(reserved.sort((a, b) => a - b)).to.deep.equal([-32022, -32021, -32020]);
  });
});

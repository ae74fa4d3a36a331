/** How `npm run fuzz` judges a category: it must have sent something, and -32603 is a finding. */
import { expect } from 'chai';
import { judge, type Attack } from '../../scripts/fuzz/attack.js';
import { Tally } from '../../scripts/fuzz/tally.js';

const attack: Attack = { label: 'probe', bytes: Buffer.from('POST /mcp'), expectJson: true };

function answer(body: unknown, status = 200) {
  return {
    kind: 'response' as const,
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

describe('fuzz tally', () => {
  it('fails a category that sent nothing', () => {
    const tally = new Tally();
    tally.begin('silent');
    expect(tally.end(0).passed).to.equal(false);
  });

  it('counts a -32603 answer as a finding, and a limit (-31000) as none', () => {
    const internal = judge(
      attack,
      answer({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }) as never,
    );
    expect(internal.findings.map((f) => f.kind)).to.deep.equal(['internal']);
    const limited = judge(
      attack,
      answer(
        { jsonrpc: '2.0', id: 1, error: { code: -31000, message: 'Too many', data: { reason: 'x' } } },
        429,
      ) as never,
    );
    expect(limited.findings).to.deep.equal([]);
    const tally = new Tally();
    tally.begin('bugs');
    tally.record(attack, internal);
    expect(tally.end(1).passed).to.equal(false);
  });
});

/**
 * Metric attribute sets by their parts (server/telemetry/attribute-sets.ts): one frozen set per
 * combination, built once, and parts told apart at every level (a missing part is not an empty
 * one, and parts that would join into the same text are not the same parts).
 */
import { expect } from 'chai';
import { AttributeSets } from '../../server/telemetry/attribute-sets.js';

describe('AttributeSets', () => {
  it('builds a set once per combination of parts and hands out the same frozen object after', () => {
    const built: unknown[][] = [];
    const sets = new AttributeSets((method: string, target: string | undefined, error: string | undefined) => {
      built.push([method, target, error]);
      return { method, ...(target === undefined ? {} : { target }), ...(error === undefined ? {} : { error }) };
    });
    const first = sets.get('tools/call', 'release', undefined);
    expect(first).to.deep.equal({ method: 'tools/call', target: 'release' });
    expect(Object.isFrozen(first)).to.equal(true);
    expect(sets.get('tools/call', 'release', undefined)).to.equal(first);
    // A part read from a new string (as JSON.parse gives each request) finds the same set.
    expect(sets.get(JSON.parse('"tools/call"') as string, 'release', undefined)).to.equal(first);
    expect(built).to.deep.equal([['tools/call', 'release', undefined]]);
  });

  it('tells parts apart at every level', () => {
    const sets = new AttributeSets(
      (a: string, b: string | undefined, c: string | undefined, d: string | undefined) => ({
        parts: JSON.stringify([a, b, c, d]),
      }),
    );
    const combinations: [string, string | undefined, string | undefined, string | undefined][] = [
      ['a', undefined, undefined, undefined],
      ['a', '', undefined, undefined],
      ['a', undefined, '', undefined],
      ['a', undefined, undefined, ''],
      ['a', 'b', 'c', 'd'],
      ['a', 'b', 'c', 'e'],
      ['a', 'b\u0000c', '', 'd'],
      ['a\u0000b', 'c', 'd', undefined],
    ];
    const found = combinations.map(([a, b, c, d]) => sets.get(a, b, c, d));
    expect(new Set(found).size).to.equal(combinations.length);
    found.forEach((set, index) => expect(set['parts']).to.equal(JSON.stringify(combinations[index])));
  });
});

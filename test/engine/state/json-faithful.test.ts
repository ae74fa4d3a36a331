import { expect } from 'chai';
import { isJsonFaithful } from '../../../server/engine/state/json-faithful.js';

describe('isJsonFaithful', () => {
  it('accepts plain data that JSON carries unchanged', () => {
    const values: unknown[] = [
      'text',
      0,
      -1.5,
      true,
      null,
      [],
      {},
      { status: 'active', value: { region: 'waiting' }, context: { list: [1, 'two', null, { deep: [false] }] } },
    ];
    for (const value of values) {
      expect(isJsonFaithful(value), JSON.stringify(value)).to.equal(true);
      expect(JSON.parse(JSON.stringify(value))).to.deep.equal(value);
    }
  });

  it('refuses what JSON would drop, change or copy', () => {
    const shared = { id: 1 };
    const cases: Record<string, unknown> = {
      undefined: undefined,
      'undefined field': { a: undefined },
      'undefined in an array': [undefined],
      '-0': -0,
      NaN: Number.NaN,
      Infinity: Number.POSITIVE_INFINITY,
      bigint: 1n,
      function: { f: () => 1 },
      symbol: Symbol('s'),
      Date: new Date(0),
      Map: new Map(),
      Set: { s: new Set([1]) },
      'null prototype': Object.create(null) as object,
      'class instance': new (class Point {})(),
      'sparse array': [1, , 3],
      'object reached twice': { a: shared, b: shared },
      'array reached twice': (() => {
        const list = [1];
        return [list, list];
      })(),
      'toJSON method': { toJSON: () => 'other' },
    };
    for (const [name, value] of Object.entries(cases)) expect(isJsonFaithful(value), name).to.equal(false);
  });

  it('refuses a cycle instead of recursing forever', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(isJsonFaithful(cycle)).to.equal(false);
  });
});

import { expect } from 'chai';
import { findUnserializable } from '../../../server/engine/round/serializable-context.js';

describe('findUnserializable', () => {
  it('accepts plain data and the classes superjson carries', () => {
    const context = {
      name: 'x',
      list: [1, 'two', { three: true }],
      when: new Date(0),
      map: new Map([['a', new Set([1, 2])]]),
      pattern: /x/,
      nothing: null,
      missing: undefined,
    };
    expect(findUnserializable(context)).to.equal(undefined);
  });

  it('names the full path of a value deep inside objects and arrays, outermost first', () => {
    const context = { orders: [{ id: 1 }, { id: 2, lines: [{ price: 1 }, { price: () => 2 }] }] };
    expect(findUnserializable(context)).to.equal('context.orders[1].lines[1].price is a function');
  });

  it('names Map keys, Map entries and Set members, and an unknown class', () => {
    class Money {}
    expect(findUnserializable({ m: new Map([[Symbol('k'), 1]]) })).to.equal('context.m key #0 is a symbol');
    expect(findUnserializable({ m: new Map([['price', new Money()]]) })).to.equal(
      'context.m.get("price") is an instance of Money',
    );
    expect(findUnserializable({ s: new Set([1, () => 1]) })).to.equal('context.s member #1 is a function');
  });

  it('finds a circular reference, but not a value reached twice side by side', () => {
    const shared = { a: 1 };
    expect(findUnserializable({ left: shared, right: shared })).to.equal(undefined);
    const loop: Record<string, unknown> = {};
    loop.self = { back: loop };
    expect(findUnserializable(loop, 'child "x" context')).to.equal(
      'child "x" context.self.back is a circular reference',
    );
  });

  it('names the root itself', () => {
    expect(findUnserializable(() => 1)).to.equal('context is a function');
  });
});

import { expect } from 'chai';
import { createMachine } from 'xstate';
import { mayHandle, mayHandleAnyEndingWith } from '../../../server/engine/round/handled-events.js';

describe('mayHandle', () => {
  const machine = createMachine({
    initial: 'outer',
    on: { RESET: '.outer' },
    states: {
      outer: {
        type: 'parallel',
        states: {
          left: { initial: 'a', states: { a: { on: { 'answer.size.unsupported': 'b' } }, b: {} } },
          right: { on: { NEXT: {} } },
        },
      },
    },
  });

  it('finds event types named by any state, nested and parallel ones included', () => {
    expect(mayHandle(machine, 'RESET')).to.equal(true);
    expect(mayHandle(machine, 'NEXT')).to.equal(true);
    expect(mayHandle(machine, 'answer.size.unsupported')).to.equal(true);
    expect(mayHandleAnyEndingWith(machine, '.unsupported')).to.equal(true);
  });

  it('says no for a type no state names', () => {
    expect(mayHandle(machine, 'answer.region.unsupported')).to.equal(false);
    expect(mayHandleAnyEndingWith(machine, '.declined')).to.equal(false);
  });

  it('leaves the answer to xstate when a state listens with a wildcard', () => {
    const wild = createMachine({ initial: 'a', states: { a: { on: { 'answer.*': 'b' } }, b: {} } });
    expect(mayHandle(wild, 'answer.size.unsupported')).to.equal(true);
    expect(mayHandleAnyEndingWith(wild, '.unsupported')).to.equal(true);
    const any = createMachine({ on: { '*': {} } });
    expect(mayHandle(any, 'whatever')).to.equal(true);
  });
});

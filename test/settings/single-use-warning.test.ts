/**
 * Which tools have single-use states, for the start-up warning of a fleet without a shared guard
 * (serve.test.ts checks the warning itself through serve()).
 */
import { expect } from 'chai';
import { createMachine } from 'xstate';
import { singleUseTools, singleUseWarning } from '../../server/settings/single-use-warning.js';
import { defineTool, respondWith, SINGLE_USE_TAG } from '../../server/engine/index.js';

const plain = defineTool({
  name: 'plain',
  description: 'P.',
  inputSchema: { type: 'object' },
  machine: respondWith('p', () => 'p'),
});
const tagged = defineTool({
  name: 'tagged',
  description: 'T.',
  inputSchema: { type: 'object' },
  machine: createMachine({
    id: 'tagged',
    initial: 'outer',
    states: { outer: { initial: 'confirm', states: { confirm: { tags: [SINGLE_USE_TAG], type: 'final' } } } },
  }),
});
const whole = defineTool({ ...plain, name: 'whole', singleUse: true });

describe('single-use warning', () => {
  it('finds a single-use state at any depth, and tools single use as a whole', () => {
    expect(singleUseTools([plain, tagged, whole])).to.deep.equal(['tagged', 'whole']);
  });

  it('says nothing with a shared guard, on a lone server, or without single-use tools', () => {
    expect(singleUseWarning([tagged], { shared: false, oneOfMany: true })).to.include('tagged');
    expect(singleUseWarning([tagged], { shared: true, oneOfMany: true })).to.equal(undefined);
    expect(singleUseWarning([tagged], { shared: false, oneOfMany: false })).to.equal(undefined);
    expect(singleUseWarning([plain], { shared: false, oneOfMany: true })).to.equal(undefined);
  });
});

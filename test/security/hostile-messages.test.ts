import { expect } from 'chai';
import { applyFieldChange } from '../helpers/hostile-messages.js';

describe('applyFieldChange (the property suites’ message mutator)', () => {
  it('never writes into a value an earlier change installed, so shared generator constants stay intact', () => {
    // fast-check hands out the same `{}` every time it picks that constant; writing inside it once
    // corrupted every later run (a cyclic _meta that JSON.stringify refused).
    const shared: Record<string, unknown> = {};
    const message: Record<string, unknown> = { params: {} };
    applyFieldChange(message, { path: ['params', '_meta'], value: shared });
    applyFieldChange(message, { path: ['params', '_meta', 'clientCapabilities'], value: shared });
    expect(shared).to.deep.equal({});
    expect(JSON.parse(JSON.stringify(message))).to.deep.equal({ params: { _meta: { clientCapabilities: {} } } });
  });
});

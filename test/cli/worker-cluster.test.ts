import { expect } from 'chai';
import { ConfigurationError } from '../../server/engine/index.js';
import { workerCount } from '../../server/cli/worker-cluster.js';

describe('workerCount', () => {
  it('is undefined without --workers', () => {
    expect(workerCount(undefined)).to.equal(undefined);
  });

  it('reads the value of --workers', () => {
    expect(workerCount('4')).to.equal(4);
    expect(workerCount('2')).to.equal(2);
  });

  it('refuses a count that is missing, zero, fractional or absurd, saying how to fix it', () => {
    for (const value of ['', '0', '1.5', 'many', '5000', '0x10']) {
      expect(() => workerCount(value), value).to.throw(ConfigurationError, /--workers/);
    }
  });
});

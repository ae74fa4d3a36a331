import { expect } from 'chai';
import { ConfigurationError } from '../../server/engine/index.js';
import { workerCountFrom } from '../../server/cli/worker-cluster.js';

describe('workerCountFrom', () => {
  it('is undefined without --workers', () => {
    expect(workerCountFrom(['--conformance'])).to.equal(undefined);
  });

  it('reads --workers N and --workers=N', () => {
    expect(workerCountFrom(['--workers', '4'])).to.equal(4);
    expect(workerCountFrom(['--conformance', '--workers=2'])).to.equal(2);
  });

  it('refuses a count that is missing, zero, fractional or absurd, saying how to fix it', () => {
    for (const args of [
      ['--workers'],
      ['--workers', '0'],
      ['--workers=1.5'],
      ['--workers', 'many'],
      ['--workers=5000'],
    ]) {
      expect(() => workerCountFrom(args), args.join(' ')).to.throw(ConfigurationError, /--workers/);
    }
  });
});

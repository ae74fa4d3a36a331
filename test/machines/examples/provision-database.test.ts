import { expect } from 'chai';
import { accept, countEffects, describePaths, done, fail, runFlow } from '../../../server/testing/index.js';
import { provisionDatabaseTool } from '../../../machines/examples/provision-database.js';
import { REFUSALS, refuseAt, resultText } from './refusals.js';

describePaths(provisionDatabaseTool, {
  outcomes: {
    // A refused pair asks the region again; provisioning may fail.
    checkQuota: [done({ ok: false, reason: 'Large databases are not offered in ap-south.' }), done({ ok: true })],
    provision: [done({ databaseUrl: 'postgres://atlas.eu-west.db.internal/small' }), fail(new Error('no capacity'))],
  },
});

describe('provision-database: declining or cancelling provisions nothing', () => {
  for (const key of ['size', 'region', 'confirm']) {
    for (const refusal of REFUSALS) {
      it(`${key}: ${refusal().action}`, async () => {
        const { run, effects } = await refuseAt(provisionDatabaseTool, key, refusal);
        expect(effects).to.deep.equal({ provision: 0 });
        expect(run.asked).to.include(key);
        expect(resultText(run)).to.include('nothing was created');
      });
    }
  }

  it('provisions once when confirmed (the count sees a provisioning)', async () => {
    const counter = countEffects(provisionDatabaseTool);
    const run = await runFlow(
      provisionDatabaseTool,
      undefined,
      { confirm: accept({ confirm: true }) },
      {
        actors: counter.actors,
      },
    );
    expect(run.result?.structuredContent).to.have.property('databaseUrl');
    expect(counter.counts).to.deep.equal({ provision: 1 });
  });
});

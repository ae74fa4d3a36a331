import { describePaths, done, fail } from '../../../server/testing/index.js';
import { provisionDatabaseTool } from '../../../machines/examples/provision-database.js';

describePaths(provisionDatabaseTool, {
  outcomes: {
    // A refused pair asks the region again; provisioning may fail.
    checkQuota: [done({ ok: false, reason: 'Large databases are not offered in ap-south.' }), done({ ok: true })],
    provision: [done({ databaseUrl: 'postgres://atlas.eu-west.db.internal/small' }), fail(new Error('no capacity'))],
  },
});

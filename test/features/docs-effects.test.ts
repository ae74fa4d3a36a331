import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyEntry } from '../../server/engine/index.js';
import { BatonFleet } from '../helpers/spawn-baton.js';

/**
 * Issue 13, finding 5: the first unauthenticated GET /docs/tools/release on an instance wrote a
 * deployment to the journal, because the docs' example run called the real `deploy` actor.
 */
describe('reading the docs', function () {
  this.timeout(60_000);
  const fleet = new BatonFleet();
  const dir = mkdtempSync(join(tmpdir(), 'baton-docs-effects-'));
  const journal = join(dir, 'deployments.log');

  after(async () => {
    await fleet.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs no effect: every page of a fresh instance leaves the deploy journal empty', async () => {
    const baton = await fleet.start({ keys: generateKeyEntry('docs'), env: { BATON_DEPLOY_JOURNAL: journal } });
    const index = await fetch(`${baton.origin}/docs`);
    expect(index.status).to.equal(200);
    const pages = [...(await index.text()).matchAll(/href="(\/docs\/(?:tools|prompts|resources)\/[^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(pages).to.include('/docs/tools/release');
    for (const page of new Set(pages)) {
      const response = await fetch(`${baton.origin}${page}`);
      expect(response.status, page).to.equal(200);
    }
    expect(existsSync(journal) ? readFileSync(journal, 'utf8') : '').to.equal('');
  });
});

/**
 * docs/benchmarks.md is written by `npm run bench`, which copies in the sections written by hand
 * in bench/report/*.md. A section edited there and not in the docs (or the other way round) would
 * drift until the next full run: every one of them must stand in the docs as it is.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';

describe('docs/benchmarks.md and the hand-written sections of bench/report/', () => {
  const docs = readFileSync('docs/benchmarks.md', 'utf8');
  const sections = readdirSync('bench/report').filter((name) => name.endsWith('.md'));

  it('finds the hand-written sections', () => {
    expect(sections).to.include.members(['telemetry.md', 'console.md', 'profile.md']);
  });

  for (const name of sections) {
    it(`holds bench/report/${name} as it is`, () => {
      const section = readFileSync(`bench/report/${name}`, 'utf8').trim();
      expect(docs.includes(section), `bench/report/${name} differs from its copy in docs/benchmarks.md`).to.equal(true);
    });
  }
});

import { expect } from 'chai';
import { planPaths, walkPaths } from '../../server/testing/index.js';
import { releaseTool } from '../../machines/examples/release.js';
import { flawedTool } from './fixtures.js';

describe('planPaths', () => {
  it('derives each question × accept/decline/cancel and both sides of a yes/no guard from the graph', () => {
    const titles = planPaths(releaseTool).map((path) => path.title);
    expect(titles).to.have.members([
      'window: accept {"window":"now"} → confirm: accept {"confirm":true}',
      'window: accept {"window":"now"} → confirm: accept {"confirm":false}',
      'window: accept {"window":"now"} → confirm: decline',
      'window: accept {"window":"now"} → confirm: cancel',
      'window: decline',
      'window: cancel',
    ]);
  });

  it('predicts the final state of each path', () => {
    const ends = planPaths(releaseTool).map((path) => path.endsIn);
    expect(new Set(ends)).to.deep.equal(new Set(['"released"', '"cancelled"']));
  });
});

describe('walkPaths', () => {
  it('passes every path of a sound tool', async () => {
    const walked = await walkPaths(releaseTool);
    expect(walked.map((w) => w.problem)).to.deep.equal(walked.map(() => undefined));
  });

  it('names the path that loops and the path that ends in a tool error', async () => {
    const walked = await walkPaths(flawedTool(), { maxRounds: 5 });
    const byTitle = Object.fromEntries(walked.map((w) => [w.path.title, w]));
    expect(byTitle['ok: accept {"ok":true}']?.problem).to.equal(undefined);
    expect(byTitle['ok: cancel']?.problem).to.match(/tool error/);
    expect(byTitle['ok: cancel']?.run.result?.isError).to.equal(true);
    // A decline that asks again forever has no simple path to a final state: the graph leaves it
    // out, and a run that declines every time never finishes.
    expect(byTitle['ok: decline']).to.equal(undefined);
  });
});

/**
 * The dependency windows (engine/version-window.ts): package.json declares exactly the versions
 * the code that relies on their internals was tested with, so an install outside them is a
 * visible conflict, and a scaffolded project asks for the same XState.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectFiles } from '../../server/cli/scaffold-templates.js';
import { TESTED_XSTATE } from '../../server/engine/round/lean-path-check.js';
import { outsideWindow, windowRange } from '../../server/engine/version-window.js';
import { koaOverrideProblem, TESTED_KOA } from '../../server/http/self-answering-koa.js';
import { PACKAGE_ROOT } from '../../server/package-root.js';

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('dependency windows', () => {
  it('declares xstate as a peer with the lean path’s window, and no plain dependency on it', () => {
    expect(manifest.peerDependencies.xstate).to.equal(windowRange(TESTED_XSTATE));
    expect(manifest.dependencies.xstate).to.equal(undefined);
  });

  it('pins koa to the window of the handleRequest override', () => {
    expect(manifest.dependencies.koa).to.equal(windowRange(TESTED_KOA));
  });

  it('gives a scaffolded project the same xstate range', () => {
    const files = projectFiles('demo', 'baton-mcp@0.1.0', 'greet');
    const project = JSON.parse(files['package.json']!) as { dependencies: Record<string, string> };
    expect(project.dependencies.xstate).to.equal(windowRange(TESTED_XSTATE));
  });

  it('stands the Koa override aside outside its window, saying why', () => {
    expect(koaOverrideProblem()).to.equal(undefined);
    expect(koaOverrideProblem('3.4.0')).to.match(/outside/);
    expect(koaOverrideProblem('3.2.9')).to.match(/outside/);
    expect(outsideWindow('koa', '3.3.7', TESTED_KOA)).to.equal(undefined);
  });
});

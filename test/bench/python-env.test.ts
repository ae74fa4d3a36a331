import { expect } from 'chai';
import {
  lastLine,
  PIP_EXTRA_INDEX_URLS,
  PIP_INDEX_URL,
  pipInstallArgs,
  PYTHON_PACKAGES,
  venvDirectory,
} from '../../bench/targets/python-env.js';
import { readyUrl } from '../../bench/targets/python-target-handle.js';

describe('bench python-env', () => {
  it('pins the packages the report names', () => {
    expect(PYTHON_PACKAGES.slice(0, 2)).to.deep.equal(['mcp==2.3.0', 'fastmcp==4.0.10']);
    for (const pin of PYTHON_PACKAGES) expect(pin).to.match(/^[a-z]+==\d+\.\d+\.\d+$/);
  });

  it('installs from the local indexes only, without retries or prompts', () => {
    const args = pipInstallArgs();
    const at = (flag: string) => args.filter((_, i) => args[i - 1] === flag);
    expect(at('--index-url')).to.deep.equal([PIP_INDEX_URL]);
    expect(at('--extra-index-url')).to.deep.equal([...PIP_EXTRA_INDEX_URLS]);
    for (const url of [...at('--index-url'), ...at('--extra-index-url')]) expect(url).to.match(/^file:\/\//);
    expect(at('--retries')).to.deep.equal(['0']);
    expect(args).to.include('--no-input');
    expect(args.slice(-PYTHON_PACKAGES.length)).to.deep.equal([...PYTHON_PACKAGES]);
  });

  it('keeps the environment in a cache directory named after the packages, or where BENCH_PYTHON_VENV says', () => {
    const a = venvDirectory({ XDG_CACHE_HOME: '/cache' }, ['mcp==2.3.0']);
    const b = venvDirectory({ XDG_CACHE_HOME: '/cache' }, ['mcp==2.4.0']);
    expect(a).to.match(/^\/cache\/baton-bench\/python-[0-9a-f]{12}$/);
    expect(a).not.to.equal(b);
    expect(venvDirectory({ BENCH_PYTHON_VENV: '/tmp/venv', XDG_CACHE_HOME: '/cache' })).to.equal('/tmp/venv');
  });

  it("says why in one line: the last line of the tool's output", () => {
    expect(lastLine('Looking in indexes\n\nERROR: No matching distribution found for mcp==2.3.0\n')).to.equal(
      'ERROR: No matching distribution found for mcp==2.3.0',
    );
    expect(lastLine('')).to.equal('(no output)');
  });

  it("reads a Python target's ready line and nothing else", () => {
    expect(readyUrl('{"type": "ready", "url": "http://127.0.0.1:4000/mcp", "pid": 7}')).to.equal(
      'http://127.0.0.1:4000/mcp',
    );
    expect(readyUrl('INFO: started')).to.equal(undefined);
    expect(readyUrl('{"type": "usage", "url": "x"}')).to.equal(undefined);
  });
});

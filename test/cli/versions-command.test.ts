/**
 * `baton versions` and `baton versions check` on a project whose survey tool changes structure
 * (a nickname question added): the check fails on the change, naming the tool and the states
 * added, until version 1 is kept (then recorded) or its restart is said to be meant.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runVersions } from '../../server/cli/versions-command.js';
import type { Lockfile } from '../../server/cli/versions-lockfile.js';
import type { ToolDefinition } from '../../server/engine/index.js';
import { surveyV1Machine, surveyV1Tool, surveyV2Tool } from '../engine/fixtures/versioned-machines.js';

const BUILDS = {
  v1: () => [surveyV1Tool()],
  v2: () => [surveyV2Tool()],
  'v2-kept': () => [surveyV2Tool([{ machine: surveyV1Machine, label: 'v1' }])],
} satisfies Record<string, () => ToolDefinition[]>;

describe('baton versions', () => {
  let dir: string;
  let lockfile: string;
  const run = (build: keyof typeof BUILDS, action?: 'check', restart?: string) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = runVersions(BUILDS[build](), action, lockfile, restart, {
      out: (text) => void out.push(text),
      err: (text) => void err.push(text),
    });
    return { code, out: out.join(''), err: err.join('') };
  };
  const locked = () => JSON.parse(readFileSync(lockfile, 'utf8')) as Lockfile;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-versions-'));
    lockfile = join(dir, 'baton.versions.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('records each tool, and the check passes while nothing changed', () => {
    expect(run('v1').code).to.equal(0);
    expect(locked().tools.survey?.states).to.deep.equal(['askColor', 'askName', 'cancelled', 'done']);
    expect(run('v1', 'check').code).to.equal(0);
  });

  it('fails the check on a structural change with nothing kept, naming the tool and the states added', () => {
    run('v1');
    const checked = run('v2', 'check');
    expect(checked.code).to.equal(1);
    expect(checked.err).to.include('survey: changed (states added: askNickname)').and.include('--restart survey');
  });

  it('refuses to record that change, and writes nothing', () => {
    run('v1');
    const before = readFileSync(lockfile, 'utf8');
    expect(run('v2').code).to.equal(1);
    expect(readFileSync(lockfile, 'utf8')).to.equal(before);
  });

  it('records the change once version 1 is kept, and the check passes again', () => {
    run('v1');
    const stale = run('v2-kept', 'check');
    expect(stale.code).to.equal(1);
    expect(stale.err).to.include('is kept');
    expect(run('v2-kept').code).to.equal(0);
    expect(Object.values(locked().tools.survey?.kept ?? {})).to.deep.equal(['v1']);
    expect(run('v2-kept', 'check').code).to.equal(0);
  });

  it('records a restart said to be meant, in the file', () => {
    run('v1');
    const v1 = locked().tools.survey!.version;
    expect(run('v2', undefined, 'survey').code).to.equal(0);
    expect(locked().tools.survey?.restarted).to.deep.equal([v1]);
    expect(run('v2', 'check').code).to.equal(0);
  });

  it('fails the check without a lockfile', () => {
    expect(run('v1', 'check').code).to.equal(1);
  });
});

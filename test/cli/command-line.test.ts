/**
 * The `baton` command line: one table, one strict parser. An unknown flag, a missing value or a
 * stray argument is a usage error (exit 2, the command's usage); `--help` prints the usage and
 * does nothing else; docs/configuration.md lists every option the table declares.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { commandUsage, parseCommandLine, UsageError } from '../../server/cli/command-line.js';
import { COMMANDS } from '../../server/cli/commands.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const spec = (name: string) => COMMANDS.find((entry) => entry.spec.name === name)!.spec;

function baton(args: string[], cwd: string) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/baton.js'), ...args], { cwd, encoding: 'utf8' });
}

describe('the baton command line', function () {
  this.timeout(180_000);

  describe('parseCommandLine', () => {
    it('reads declared options and the positional argument', () => {
      const parsed = parseCommandLine(spec('call'), ['hello', '--tools', 'tools/index.ts', '--json']);
      expect(parsed).to.deep.equal({
        values: { tools: 'tools/index.ts', json: true },
        positional: 'hello',
        help: false,
      });
    });

    it('refuses an unknown flag, a flag without its value and a stray argument, with the usage', () => {
      for (const [name, argv] of [
        ['serve', ['--tool', 'x.ts']],
        ['docs', ['--out']],
        ['stdio', ['extra']],
        ['call', []],
        ['dev', ['--tools', '--conformance']],
      ] as const) {
        let error: unknown;
        try {
          parseCommandLine(spec(name), [...argv]);
        } catch (caught) {
          error = caught;
        }
        expect(error, `${name} ${argv.join(' ')}`).to.be.instanceOf(UsageError);
        expect((error as UsageError).exitCode).to.equal(2);
        expect((error as UsageError).usage).to.equal(commandUsage(spec(name)));
      }
    });

    it('answers --help whatever else is given', () => {
      expect(parseCommandLine(spec('docs'), ['--check', '--help']).help).to.equal(true);
      expect(parseCommandLine(spec('call'), ['-h']).help).to.equal(true);
    });
  });

  describe('the real command', () => {
    let dir = '';
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'baton-cli-'));
      writeFileSync(join(dir, 'package.json'), '{"name":"empty"}');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('`baton --help` lists every command', () => {
      const help = baton(['--help'], dir);
      expect(help.status).to.equal(0);
      for (const { spec: command } of COMMANDS) expect(help.stdout).to.include(`  ${command.name} `);
    });

    it('`baton <command> --help` prints its usage and does nothing else (docs writes no page)', () => {
      for (const name of ['docs', 'serve', 'new']) {
        const help = baton([name, '--help'], dir);
        expect(help.status, help.stderr).to.equal(0);
        expect(help.stdout).to.equal(commandUsage(spec(name)));
      }
      expect(readdirSync(dir)).to.deep.equal(['package.json']);
    });

    it('exits 2 with the usage on an unknown flag', () => {
      for (const name of ['docs', 'serve']) {
        const run = baton([name, '--no-such-flag'], dir);
        expect(run.status, name).to.equal(2);
        expect(run.stderr).to.include(`Usage: baton ${name}`);
      }
      expect(readdirSync(dir)).to.deep.equal(['package.json']);
    });
  });

  it('refuses an unknown flag for every command in the table', () => {
    for (const { spec: command } of COMMANDS) {
      expect(() => parseCommandLine(command, ['--no-such-flag']), command.name).to.throw(UsageError, /--no-such-flag/);
    }
  });

  it('docs/configuration.md lists every option of every command', () => {
    const table = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    for (const { spec: command } of COMMANDS) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`baton ${command.name}`));
      expect(row, `a row for baton ${command.name}`).to.be.a('string');
      for (const option of Object.keys(command.options)) expect(row, command.name).to.include(`\`--${option}`);
    }
  });
});

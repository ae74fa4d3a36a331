/**
 * `baton call`, both ways: scripted with --answers (the command's own function, its output
 * captured), in process and against a running server; and interactively, the real command in a
 * real pseudo-terminal (tmux), answering the prompts with the keys a person would press.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { callCommand, type CallIo } from '../../server/cli/call-command.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { TmuxTerminal } from '../helpers/tmux-terminal.js';

function capture(): CallIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  return { stdout, stderr, interactive: false, out: () => out, err: () => err };
}

async function call(...argv: string[]) {
  const io = capture();
  const status = await callCommand(argv, io);
  return { status, stdout: io.out(), stderr: io.err() };
}

const RELEASE_ANSWERS = JSON.stringify({ window: { window: 'tonight' }, confirm: { confirm: true } });

describe('baton call', function () {
  this.timeout(60_000);

  describe('scripted with --answers', () => {
    it('walks release in process and prints the result', async () => {
      const { status, stdout } = await call('release', '--answers', RELEASE_ANSWERS);
      expect(status).to.equal(0);
      expect(JSON.parse(stdout)).to.include({ released: true, service: 'billing', window: 'tonight' });
    });

    it("runs the README's one-liner as written", async () => {
      const line = readFileSync('README.md', 'utf8')
        .split('\n')
        .find((l) => l.startsWith('npx baton call '))!;
      const words = line.match(/'[^']*'|\S+/g)!.map((w) => w.replace(/^'|'$/g, ''));
      const { status, stdout } = await call(...words.slice(3));
      expect(status).to.equal(0);
      expect(JSON.parse(stdout)).to.include({ released: true });
    });

    it('answers a question asked again from a list, one per time it is asked', async () => {
      const answers = {
        size: { size: 'large' },
        region: [{ region: 'ap-south' }, { region: 'eu-west' }],
        confirm: { confirm: true },
      };
      const { status, stdout } = await call('provision-database', '--json', '--answers', JSON.stringify(answers));
      expect(status).to.equal(0);
      expect(JSON.parse(stdout).structuredContent).to.include({ size: 'large', region: 'eu-west' });
    });

    it('takes decline and cancel as answers', async () => {
      for (const action of ['decline', 'cancel']) {
        const { status, stdout } = await call(
          'release',
          '--args',
          '{"service":"search","version":"1.0.0"}',
          '--answers',
          JSON.stringify({ window: action }),
        );
        expect(status, action).to.equal(0);
        expect(stdout, action).to.include('search 1.0.0 cancelled');
      }
    });

    it('exits 1 on an error result, and prints the progress of a streamed round', async () => {
      const failed = await call('test_error_handling', '--conformance', '--answers', '{}');
      expect(failed.status).to.equal(1);
      const progress = await call('test_tool_with_progress', '--conformance', '--answers', '{}');
      expect(progress.status).to.equal(0);
      expect(progress.stderr).to.include('Halfway (50/100)');
    });

    it('exits 2, naming the question, when --answers lacks an answer', async () => {
      const { status, stderr } = await call('release', '--answers', '{"window": {"window": "now"}}');
      expect(status).to.equal(2);
      expect(stderr).to.include('"confirm"');
    });

    it('exits 2 when a question is asked again and --answers gave it one answer only', async () => {
      const { status, stderr } = await call('release', '--answers', '{"window": "accept"}');
      expect(status).to.equal(2);
      expect(stderr).to.include('"window"').and.include('time 2');
    });

    it('exits 2 without a terminal and without --answers, and for an unknown tool', async () => {
      expect((await call('release')).status).to.equal(2);
      expect((await call('nope', '--answers', '{}')).status).to.equal(2);
      expect((await call('--answers', '{}')).status).to.equal(2);
    });
  });

  describe('against a running server with --url', () => {
    const TOKEN = 'call-token-0123456789abcdef';
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({
        tools: [
          ...exampleTools({ publicUrl: 'http://127.0.0.1:1', vault: createMemoryVault() }),
          ...conformanceFixtures().tools,
        ],
        authenticate: staticBearerTokens(new Map([[TOKEN, 'caller']])),
      });
    });
    after(() => server?.close());

    it('walks a flow with the bearer token', async () => {
      const { status, stdout } = await call(
        'release',
        '--url',
        server.url,
        '--token',
        TOKEN,
        '--args',
        '{"service":"api","version":"3.0.0"}',
        '--answers',
        RELEASE_ANSWERS,
      );
      expect(status).to.equal(0);
      expect(JSON.parse(stdout)).to.include({ released: true, service: 'api' });
    });

    it('sends the Mcp-Param headers of x-mcp-header parameters', async () => {
      const { status, stderr } = await call(
        'test_x_mcp_header',
        '--url',
        server.url,
        '--token',
        TOKEN,
        '--args',
        '{"region":"eu-west-1"}',
        '--answers',
        '{}',
      );
      expect(stderr).to.equal('');
      expect(status).to.equal(0);
    });

    it('exits 2 when the token is refused', async () => {
      expect((await call('release', '--url', server.url, '--answers', RELEASE_ANSWERS)).status).to.equal(2);
    });
  });

  describe('interactively in a pseudo-terminal', function () {
    let terminal: TmuxTerminal | undefined;
    before(function () {
      if (!existsSync('/usr/bin/tmux')) {
        if (process.env.CI) throw new Error('tmux is missing (apt-get install tmux)');
        this.skip();
      }
    });
    afterEach(() => terminal?.close());

    it('asks the arguments and every question of release, then prints the result', async () => {
      terminal = await TmuxTerminal.start('node bin/baton.js call release', process.cwd());
      await terminal.waitFor('Service to release');
      await terminal.keys('Enter'); // the example argument, billing
      await terminal.waitFor('Version to deploy');
      await terminal.keys('Enter');
      await terminal.waitFor('When should billing 2.4.0 go out?');
      await terminal.waitFor('Answer this question?');
      await terminal.keys('Enter');
      await terminal.waitFor('Release window');
      await terminal.keys('Down', 'Enter'); // now -> tonight
      await terminal.waitFor('Deploy billing 2.4.0 (tonight)?');
      await terminal.keys('Enter');
      await terminal.waitFor('Deploy now');
      await terminal.keys('y', 'Enter');
      expect(await terminal.exitStatus()).to.equal(0);
      expect(await terminal.screen()).to.include('"released":true');
    });

    it('offers decline, which ends the flow', async () => {
      terminal = await TmuxTerminal.start(
        `node bin/baton.js call release --args '{"service":"web","version":"9"}'`,
        process.cwd(),
      );
      await terminal.waitFor('When should web 9 go out?');
      await terminal.waitFor('Answer this question?');
      await terminal.keys('Down', 'Enter'); // Answer -> Decline
      expect(await terminal.exitStatus()).to.equal(0);
      expect(await terminal.screen()).to.include('Release of web 9 cancelled: nothing was deployed.');
    });
  });
});

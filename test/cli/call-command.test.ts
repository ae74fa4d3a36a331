/**
 * `baton call`, both ways: scripted with --answers (the command's own function, its output
 * captured), in process and against a running server; and interactively, the real command in a
 * real pseudo-terminal (tmux), answering the prompts with the keys a person would press.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { callCommand, type CallIo } from '../../server/cli/call-command.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { numberTask } from '../helpers/number-task.js';
import { getTask, taskRpc } from '../helpers/tasks.js';
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

const SHIP_ARGS = JSON.stringify({ service: 'billing', version: '2.5.0', bakeSeconds: 1 });
const SHIP_ANSWERS = JSON.stringify({ approve: { approve: true, approver: 'ada' } });
/** The statuses a followed task printed to stderr, in order, each once. */
const statusesIn = (stderr: string) =>
  [...stderr.matchAll(/^ {2}\[(\w+)\]/gm)].map((m) => m[1]).filter((s, n, all) => s !== all[n - 1]);
const taskIdIn = (stderr: string) => /task (\S+), polling tasks\/get/.exec(stderr)?.[1];

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

  describe('a task, scripted in process', () => {
    it('follows ship-release through its approval to the result, printing each status', async () => {
      const { status, stdout, stderr } = await call('ship-release', '--args', SHIP_ARGS, '--answers', SHIP_ANSWERS);
      expect(status, stderr).to.equal(0);
      expect(JSON.parse(stdout)).to.include({ shipped: true, service: 'billing', approvedBy: 'ada' });
      expect(taskIdIn(stderr)).to.match(/^[\w-]{16,}$/);
      expect(statusesIn(stderr)).to.deep.equal(['working', 'input_required', 'working', 'completed']);
      expect(stderr)
        .to.match(/\[working\] Building: /)
        .and.match(/\[working\] Baking in the canary for 1 s/);
    });

    it('takes a decline inside the task', async () => {
      const { status, stdout } = await call('ship-release', '--args', SHIP_ARGS, '--answers', '{"approve":"decline"}');
      expect(status).to.equal(0);
      expect(stdout).to.include('was not approved');
    });

    it('cancels the task on an interrupt and exits 130', async () => {
      const io = capture();
      let interrupt: (() => void) | undefined;
      io.onInterrupt = (handler) => {
        interrupt = handler;
        return () => (interrupt = undefined);
      };
      const running = callCommand(['ship-release', '--args', SHIP_ARGS, '--answers', SHIP_ANSWERS], io);
      while (!/\[working\] Building/.test(io.err())) await new Promise((resolve) => setTimeout(resolve, 20));
      interrupt!();
      expect(await running).to.equal(130);
      expect(io.err()).to.include(`task ${taskIdIn(io.err())} cancelled`);
      expect(io.out()).to.equal('');
      expect(interrupt, 'unsubscribed').to.equal(undefined);
    });
  });

  describe('against a running server with --url', () => {
    const TOKEN = 'call-token-0123456789abcdef';
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({
        tasks: { pollIntervalMs: 200 },
        tools: [
          ...exampleTools({ publicUrl: 'http://127.0.0.1:1', vault: createMemoryVault() }),
          ...conformanceFixtures().tools,
          numberTask,
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

    const withToken = (...argv: string[]) => call(...argv, '--url', server.url, '--token', TOKEN);
    const asCaller = { headers: { authorization: `Bearer ${TOKEN}` } };

    it('follows ship-release as a task to its result', async () => {
      const { status, stdout, stderr } = await withToken(
        'ship-release',
        '--json',
        '--args',
        SHIP_ARGS,
        '--answers',
        SHIP_ANSWERS,
      );
      expect(status, stderr).to.equal(0);
      expect(JSON.parse(stdout).structuredContent).to.include({ shipped: true, approvedBy: 'ada' });
      expect(statusesIn(stderr)).to.deep.equal(['working', 'input_required', 'working', 'completed']);
      expect(stderr).to.include('every 200 ms');
      expect((await getTask(server.url, taskIdIn(stderr)!, asCaller)).status).to.equal('completed');
    });

    it('answers a key asked again inside a task (number.2) from the list under its question key', async () => {
      const answers = JSON.stringify({ number: [{ n: 3 }, { n: 12 }] });
      const { status, stdout, stderr } = await withToken('number-task', '--args', '{}', '--answers', answers);
      expect(status, stderr).to.equal(0);
      expect(stdout).to.equal('got 12\n');
    });

    it('exits 2 naming number.2 when --answers gave one answer, and cancels the task it gives up', async () => {
      const { status, stderr } = await withToken('number-task', '--args', '{}', '--answers', '{"number":{"n":3}}');
      expect(status).to.equal(2);
      expect(stderr).to.include('"number.2"').and.include('time 2');
      expect((await getTask(server.url, taskIdIn(stderr)!, asCaller)).status).to.equal('cancelled');
    });

    it('exits 1 when someone else cancels the task', async () => {
      const io = capture();
      const running = callCommand(
        ['ship-release', '--url', server.url, '--token', TOKEN, '--args', SHIP_ARGS, '--answers', SHIP_ANSWERS],
        io,
      );
      while (!taskIdIn(io.err())) await new Promise((resolve) => setTimeout(resolve, 20));
      await taskRpc(server.url, 'tasks/cancel', { taskId: taskIdIn(io.err())! }, asCaller);
      expect(await running).to.equal(1);
      expect(statusesIn(io.err()).at(-1)).to.equal('cancelled');
    });

    it('sends tasks/cancel on Ctrl+C (SIGINT) in the real command, and exits 130', async () => {
      const args = JSON.stringify({ service: 'billing', version: '2.5.0', bakeSeconds: 600 });
      const child = spawn(
        process.execPath,
        [
          'bin/baton.js',
          'call',
          'ship-release',
          '--url',
          server.url,
          '--token',
          TOKEN,
          '--args',
          args,
          '--answers',
          SHIP_ANSWERS,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = once(child, 'exit');
      try {
        // Mid-bake: the approval was sent, the durable timer has 600 s to go.
        while (!/\[working\] Baking/.test(stderr)) {
          if (child.exitCode !== null) throw new Error(`exited early: ${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        child.kill('SIGINT');
        const [code] = await exited;
        expect(code, stderr).to.equal(130);
        expect((await getTask(server.url, taskIdIn(stderr)!, asCaller)).status).to.equal('cancelled');
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
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
      await terminal.waitFor('asks for the changelog users must read'); // breaking: optional, no
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

    it("asks a task's approval, then prints the task's result", async () => {
      terminal = await TmuxTerminal.start(`node bin/baton.js call ship-release --args '${SHIP_ARGS}'`, process.cwd());
      await terminal.waitFor('[working] Building');
      await terminal.waitFor('is built. Ship it to the canary');
      await terminal.waitFor('Answer this question?');
      await terminal.keys('Enter');
      await terminal.waitFor('Approve the release');
      await terminal.keys('y', 'Enter');
      await terminal.waitFor('Your name');
      await terminal.keys('a', 'd', 'a', 'Enter');
      expect(await terminal.exitStatus()).to.equal(0);
      const screen = await terminal.screen();
      expect(screen).to.include('[completed]').and.include('"approvedBy":"ada"');
    });

    it("cancels the task on Ctrl+C at the task's prompt, and exits 130", async () => {
      terminal = await TmuxTerminal.start(`node bin/baton.js call ship-release --args '${SHIP_ARGS}'`, process.cwd());
      await terminal.waitFor('Answer this question?');
      await terminal.keys('C-c');
      expect(await terminal.exitStatus()).to.equal(130);
      expect(await terminal.screen()).to.match(/task \S+ cancelled/);
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

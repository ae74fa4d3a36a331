/**
 * `npm run conformance`: runs the official MCP conformance suite against Baton with its
 * conformance fixtures and prints a score of its own.
 *
 * Baton is started as a child process on a free 127.0.0.1 port (`serve --conformance`, a fresh
 * BATON_KEYS), the suite runs `server --requirements 2026-07-28` under Node >= 22 with everything
 * it prints going to `.artifacts/conformance.log` and its per-scenario checks to
 * `.artifacts/conformance-results/`, and the server is stopped by PID afterwards, also on errors
 * and signals. The last line, `conformance: N passed, N failed`, counts the scored scenarios of
 * the requirement set plus the tasks-* scenarios of the tasks extension, which the requirement
 * run skips as "extension" and which are therefore run once more one by one with `--force` (a
 * scenario passes when none of its checks is a FAILURE and at least one check ran; one whose only
 * check is SKIPPED is shown apart, counted neither way). The suite's own `Total:` line counts
 * checks, so it stays in the log.
 *
 * Exit code: 0 when every scored scenario passed, 1 when one failed, 2 when the suite could not
 * run or its run is incomplete. See docs/conformance.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKeyEntry } from '../server/engine/index.js';
import {
  ensureRunnerInstalled,
  findNode22,
  findSuitePackage,
  formatTable,
  freeLoopbackPort,
  isPassed,
  loadScenarioSets,
  readScenarioResults,
  runSuite,
  startBaton,
  summaryLine,
  SUITE_PACKAGE,
  tasksScenarios,
  pendingScenarios,
  type BatonProcess,
  type SuiteHandle,
} from './conformance/index.js';

const REVISION = '2026-07-28';
const HOST = '127.0.0.1';
/** Per scenario; the suite's default of 30 s lets a hanging server cost 50 x 30 s. */
const SCENARIO_TIMEOUT_MS = 10_000;
/** The tasks scenarios wait for tasks to finish (a few seconds each) and poll every 200 ms. */
const TASKS_SCENARIO_TIMEOUT_MS = 60_000;
/** For the whole suite run, in case the suite itself hangs. */
const SUITE_DEADLINE_MS = 15 * 60_000;

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const artifactsDir = join(projectRoot, '.artifacts');
const runnerRoot = join(projectRoot, 'tools', 'conformance');
const suiteLogPath = join(artifactsDir, 'conformance.log');
const serverLogPath = join(artifactsDir, 'conformance-server.log');
const resultsDir = join(artifactsDir, 'conformance-results');
const tasksResultsDir = join(artifactsDir, 'conformance-results-tasks');

const say = (line: string) => process.stdout.write(`${line}\n`);
const shown = (path: string) => (path.startsWith(projectRoot) ? relative(projectRoot, path) : path);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The child processes alive right now, so that errors and signals can stop them. */
const running: { baton?: BatonProcess; suite?: SuiteHandle } = {};
/** Set once a signal asked us to stop: no report then, only the signal's exit code. */
let stoppedBy: NodeJS.Signals | undefined;
const signalExitCode = (signal: NodeJS.Signals) => 128 + (constants.signals[signal] ?? 1);

async function stopChildren(): Promise<void> {
  running.suite?.kill();
  const baton = running.baton;
  running.baton = undefined;
  await baton?.stop();
}

function exitOnSignal(signal: NodeJS.Signals): void {
  process.once(signal, () => {
    stoppedBy = signal;
    say(`conformance: received ${signal}, stopping`);
    void stopChildren().finally(() => process.exit(signalExitCode(signal)));
  });
}

/** Starts Baton, runs the suite against it, stops Baton. Returns a problem if the run is incomplete. */
async function runAgainstBaton(
  node: ReturnType<typeof findNode22>,
  cliPath: string,
  tasksScenarioNames: string[],
): Promise<{ exitCode: number | null; problem?: string }> {
  try {
    const port = await freeLoopbackPort(HOST);
    const baton = startBaton({
      projectRoot,
      host: HOST,
      port,
      logPath: serverLogPath,
      // A fresh key (no dev-key warning); empty values neutralise settings from the caller's shell.
      env: { BATON_KEYS: generateKeyEntry('conformance'), BATON_PUBLIC_URL: '', BATON_STATE_TTL: '' },
    });
    running.baton = baton;
    await baton.ready;
    say(`conformance: Baton (pid ${baton.pid}) ready at ${baton.url}; server log: ${shown(serverLogPath)}`);

    say(`conformance: running the suite; log: ${shown(suiteLogPath)}, results: ${shown(resultsDir)}/`);
    const args = ['server', '--url', baton.url, '--requirements', REVISION];
    args.push('--timeout', String(SCENARIO_TIMEOUT_MS), '-o', resultsDir);
    running.suite = runSuite({
      node,
      cliPath,
      args,
      cwd: projectRoot,
      logPath: suiteLogPath,
      deadlineMs: SUITE_DEADLINE_MS,
    });
    const run = await running.suite.done;
    running.suite = undefined;
    const ended = run.signal ? `signal ${run.signal}` : `exit code ${run.exitCode}`;
    say(`conformance: the suite ended with ${ended} after ${(run.durationMs / 1000).toFixed(1)} s`);
    if (run.problem) return { exitCode: run.exitCode, problem: run.problem };
    // The suite exits 0 or 1 (a scored FAILURE); anything else means it broke.
    if (run.exitCode !== 0 && run.exitCode !== 1) {
      return { exitCode: run.exitCode, problem: `the suite broke (${ended}); see ${shown(suiteLogPath)}` };
    }
    // The extension's scenarios run only when forced, one at a time (docs/conformance.md).
    for (const scenario of tasksScenarioNames) {
      const forced = ['server', '--url', baton.url, '--scenario', scenario, '--spec-version', REVISION, '--force'];
      forced.push('--timeout', String(TASKS_SCENARIO_TIMEOUT_MS), '-o', tasksResultsDir);
      running.suite = runSuite({
        node,
        cliPath,
        args: forced,
        cwd: projectRoot,
        logPath: join(artifactsDir, `conformance-${scenario}.log`),
        deadlineMs: 2 * TASKS_SCENARIO_TIMEOUT_MS,
      });
      const one = await running.suite.done;
      running.suite = undefined;
      if (one.problem) return { exitCode: one.exitCode, problem: `${scenario}: ${one.problem}` };
    }
    return { exitCode: run.exitCode };
  } catch (error) {
    return { exitCode: null, problem: messageOf(error) };
  } finally {
    await stopChildren();
  }
}

async function main(): Promise<number> {
  let node: ReturnType<typeof findNode22>;
  let suite: ReturnType<typeof findSuitePackage>;
  let sets: ReturnType<typeof loadScenarioSets>;
  try {
    // The suite and its Node 22 live in their own folder (tools/conformance), installed on first
    // use, so the project's own npm scripts never pick up the packaged node binary.
    ensureRunnerInstalled(runnerRoot);
    node = findNode22(runnerRoot);
    suite = findSuitePackage(runnerRoot);
    const { command } = node;
    const { cliPath } = suite;
    sets = loadScenarioSets(suite.dir, REVISION, () =>
      execFileSync(command, [cliPath, 'list', '--requirements', REVISION], { encoding: 'utf8' }),
    );
  } catch (error) {
    say(`conformance: cannot run: ${messageOf(error)}`);
    return 2;
  }
  say(`conformance: ${SUITE_PACKAGE}@${suite.version} on Node ${node.version} (${node.source})`);
  const tasks = tasksScenarios(sets);
  say(
    `conformance: ${sets.scored.length} scored, ${sets.unscored.length} unscored server scenarios ` +
      `(requirements ${REVISION}, from ${shown(sets.source)})`,
  );

  mkdirSync(artifactsDir, { recursive: true });
  rmSync(resultsDir, { recursive: true, force: true }); // only this run's folders may be read
  rmSync(tasksResultsDir, { recursive: true, force: true });
  const run = await runAgainstBaton(node, suite.cliPath, tasks);
  if (stoppedBy) return signalExitCode(stoppedBy);

  const scored = readScenarioResults(resultsDir, sets.scored);
  const tasksAll = readScenarioResults(tasksResultsDir, tasks);
  // A scenario whose harness is a placeholder runs no check: it proves nothing either way.
  const placeholders = tasksAll.filter((result) => isPlaceholder(result));
  const tasksResults = tasksAll.filter((result) => !isPlaceholder(result));
  const pendingResults = readScenarioResults(resultsDir, pendingScenarios(sets));
  const failures = [...scored, ...tasksResults].filter((result) => !isPassed(result)).length;
  let problem = run.problem;
  if (!problem && [...scored, ...tasksResults].every((result) => result.outcome === 'not-run')) {
    problem = `the suite wrote no results to ${shown(resultsDir)}; see ${shown(suiteLogPath)}`;
  }
  if (!problem && run.exitCode === 1 && failures === 0) {
    problem = `the suite exited 1 though no scored checks.json has a FAILURE; see ${shown(suiteLogPath)}`;
  }
  if (run.exitCode === 0 && failures > 0) {
    say('conformance: note: the suite exited 0, but checks.json shows scored failures');
  }

  say(`conformance: scored scenarios (requirements ${REVISION}):`);
  say(formatTable(scored));
  if (pendingResults.length > 0) say(formatTable(pendingResults));
  if (pendingResults.length > 0) say(summaryLine('conformance (unscored pending)', pendingResults));
  say(`conformance: tasks extension scenarios (forced, spec version ${REVISION}):`);
  if (tasksResults.length > 0) say(formatTable(tasksResults));
  for (const result of placeholders) {
    say(`  SKIP  ${result.name}  the suite's harness runs no check yet (only SKIPPED); not counted`);
  }
  if (tasksResults.length > 0) say(summaryLine('conformance (tasks-*)', tasksResults));
  if (problem) say(`conformance: incomplete run: ${problem}`);
  say(summaryLine('conformance', [...scored, ...tasksResults]));
  if (problem) return 2;
  return failures > 0 ? 1 : 0;
}

exitOnSignal('SIGINT');
exitOnSignal('SIGTERM');
exitOnSignal('SIGHUP');
// Last resort if the process ends some other way: never leave a server behind.
process.on('exit', () => {
  running.baton?.killNow();
  running.suite?.kill();
});

function isPlaceholder(result: ReturnType<typeof readScenarioResults>[number]): boolean {
  const ran = Object.entries(result.counts).some(([status, count]) => status !== 'SKIPPED' && count > 0);
  return result.outcome === 'passed' && !ran && (result.counts.SKIPPED ?? 0) > 0;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    say(`conformance: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
    await stopChildren();
    process.exit(2);
  },
);

/**
 * `npm run conformance`: runs the official MCP conformance suite against Baton with its
 * conformance fixtures and prints a score of its own.
 *
 * For each revision Baton serves (2026-07-28, then 2025-11-25 on the same endpoint), Baton is
 * started as a child process on a free 127.0.0.1 port (`serve --conformance`, a fresh
 * BATON_KEYS), the suite runs `server --requirements <revision>` under Node >= 22 with everything
 * it prints going to `.artifacts/conformance[-<revision>].log` and its per-scenario checks to
 * `.artifacts/conformance-results[-<revision>]/`, and the server is stopped by PID afterwards,
 * also on errors and signals. Each revision gets its line `conformance <revision>: N passed, N
 * failed`; the last line, `conformance: N passed, N failed`, adds them up. Both count the scored
 * scenarios of the requirement sets (a scenario passes when none of its checks is a FAILURE),
 * plus, for 2026-07-28, the tasks-* scenarios of the tasks extension: the requirement run skips
 * them as "extension", so they are run once more one by one with `--force` (one whose only check
 * is SKIPPED, a placeholder in the suite, is shown apart and counted neither way). The suite's own
 * `Total:` line counts checks, so it stays in the log.
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
import { PROTOCOL_VERSION } from '../server/protocol/index.js';
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

/** The 2026-07-28 artifacts keep their historical names; other revisions add a suffix. */
const REVISIONS = [PROTOCOL_VERSION, '2025-11-25'] as const;
type Revision = (typeof REVISIONS)[number];
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
const suffix = (revision: Revision) => (revision === REVISIONS[0] ? '' : `-${revision}`);
const suiteLogPath = (revision: Revision) => join(artifactsDir, `conformance${suffix(revision)}.log`);
const serverLogPath = (revision: Revision) => join(artifactsDir, `conformance-server${suffix(revision)}.log`);
const resultsDir = (revision: Revision) => join(artifactsDir, `conformance-results${suffix(revision)}`);
const tasksResultsDir = (revision: Revision) => `${resultsDir(revision)}-tasks`;

const say = (line: string) => process.stdout.write(`${line}\n`);
const shown = (path: string) => (path.startsWith(projectRoot) ? relative(projectRoot, path) : path);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The child processes alive right now, so that errors and signals can stop them. */
const running: { baton?: BatonProcess | undefined; suite?: SuiteHandle | undefined } = {};
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
  revision: Revision,
  forced: string[],
): Promise<{ exitCode: number | null; problem?: string }> {
  const logPath = suiteLogPath(revision);
  try {
    const port = await freeLoopbackPort(HOST);
    const baton = startBaton({
      projectRoot,
      host: HOST,
      port,
      logPath: serverLogPath(revision),
      // A fresh key (no dev-key warning); empty values neutralise settings from the caller's shell.
      env: { BATON_KEYS: generateKeyEntry('conformance'), BATON_PUBLIC_URL: '', BATON_STATE_TTL: '' },
    });
    running.baton = baton;
    await baton.ready;
    say(`conformance: Baton (pid ${baton.pid}) ready at ${baton.url}; server log: ${shown(serverLogPath(revision))}`);

    say(`conformance: running the ${revision} suite; log: ${shown(logPath)}, results: ${shown(resultsDir(revision))}/`);
    const args = ['server', '--url', baton.url, '--requirements', revision];
    args.push('--timeout', String(SCENARIO_TIMEOUT_MS), '-o', resultsDir(revision));
    running.suite = runSuite({
      node,
      cliPath,
      args,
      cwd: projectRoot,
      logPath,
      deadlineMs: SUITE_DEADLINE_MS,
    });
    const run = await running.suite.done;
    running.suite = undefined;
    const ended = run.signal ? `signal ${run.signal}` : `exit code ${run.exitCode}`;
    say(`conformance: the suite ended with ${ended} after ${(run.durationMs / 1000).toFixed(1)} s`);
    if (run.problem) return { exitCode: run.exitCode, problem: run.problem };
    // The suite exits 0 or 1 (a scored FAILURE); anything else means it broke.
    if (run.exitCode !== 0 && run.exitCode !== 1) {
      return { exitCode: run.exitCode, problem: `the suite broke (${ended}); see ${shown(logPath)}` };
    }
    // The extension's scenarios run only when forced, one at a time (docs/conformance.md).
    for (const scenario of forced) {
      const args = ['server', '--url', baton.url, '--scenario', scenario, '--spec-version', revision, '--force'];
      args.push('--timeout', String(TASKS_SCENARIO_TIMEOUT_MS), '-o', tasksResultsDir(revision));
      running.suite = runSuite({
        node,
        cliPath,
        args,
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
  try {
    // The suite and its Node 22 live in their own folder (tools/conformance), installed on first
    // use, so the project's own npm scripts never pick up the packaged node binary.
    ensureRunnerInstalled(runnerRoot);
    node = findNode22(runnerRoot);
    suite = findSuitePackage(runnerRoot);
  } catch (error) {
    say(`conformance: cannot run: ${messageOf(error)}`);
    return 2;
  }
  say(`conformance: ${SUITE_PACKAGE}@${suite.version} on Node ${node.version} (${node.source})`);
  mkdirSync(artifactsDir, { recursive: true });
  const lines: string[] = [];
  const all: ReturnType<typeof readScenarioResults> = [];
  let code = 0;
  for (const revision of REVISIONS) {
    const outcome = await runRevision(node, suite, revision);
    if (stoppedBy) return signalExitCode(stoppedBy);
    lines.push(summaryLine(`conformance ${revision}`, outcome.scored));
    if (outcome.tasks.length > 0) lines.push(summaryLine(`conformance ${revision} tasks-*`, outcome.tasks));
    all.push(...outcome.scored, ...outcome.tasks);
    code = Math.max(code, outcome.code);
  }
  for (const line of lines) say(line);
  say(summaryLine('conformance', all));
  return code;
}

/** One requirement set against a fresh Baton: 0 all scored passed, 1 a scored failure, 2 incomplete. */
async function runRevision(
  node: ReturnType<typeof findNode22>,
  suite: ReturnType<typeof findSuitePackage>,
  revision: Revision,
): Promise<{ code: number; scored: ScenarioResults; tasks: ScenarioResults }> {
  let sets: ReturnType<typeof loadScenarioSets>;
  try {
    const { command } = node;
    const { cliPath } = suite;
    sets = loadScenarioSets(suite.dir, revision, () =>
      execFileSync(command, [cliPath, 'list', '--requirements', revision], { encoding: 'utf8' }),
    );
  } catch (error) {
    say(`conformance: cannot run ${revision}: ${messageOf(error)}`);
    return { code: 2, scored: [], tasks: [] };
  }
  const tasks = tasksScenarios(sets);
  say(
    `conformance: ${sets.scored.length} scored, ${sets.unscored.length} unscored server scenarios ` +
      `(requirements ${revision}, from ${shown(sets.source)})`,
  );

  const results = resultsDir(revision);
  rmSync(results, { recursive: true, force: true }); // only this run's folders may be read
  rmSync(tasksResultsDir(revision), { recursive: true, force: true });
  // Tasks are a 2026-07-28 extension: forced on that revision only.
  const forced = revision === PROTOCOL_VERSION ? tasks : [];
  const run = await runAgainstBaton(node, suite.cliPath, revision, forced);
  if (stoppedBy) return { code: signalExitCode(stoppedBy), scored: [], tasks: [] };

  const scored = readScenarioResults(results, sets.scored);
  const forcedAll = readScenarioResults(tasksResultsDir(revision), forced);
  // A scenario whose harness is a placeholder runs no check: it proves nothing either way.
  const placeholders = forcedAll.filter(isPlaceholder);
  const forcedResults = forcedAll.filter((result) => !isPlaceholder(result));
  const tasksResults = readScenarioResults(results, tasks);
  const pendingResults = readScenarioResults(results, pendingScenarios(sets));
  const failures = [...scored, ...forcedResults].filter((result) => !isPassed(result)).length;
  let problem = run.problem;
  if (!problem && [...scored, ...tasksResults].every((result) => result.outcome === 'not-run')) {
    problem = `the suite wrote no results to ${shown(results)}; see ${shown(suiteLogPath(revision))}`;
  }
  if (!problem && run.exitCode === 1 && failures === 0) {
    problem = `the suite exited 1 though no scored checks.json has a FAILURE; see ${shown(suiteLogPath(revision))}`;
  }
  if (run.exitCode === 0 && failures > 0) {
    say('conformance: note: the suite exited 0, but checks.json shows scored failures');
  }

  say(`conformance: scored scenarios (requirements ${revision}):`);
  say(formatTable(scored));
  if (pendingResults.length > 0) say(formatTable(pendingResults));
  if (pendingResults.length > 0) say(summaryLine(`conformance ${revision} (unscored pending)`, pendingResults));
  if (forced.length > 0) {
    say(`conformance: tasks extension scenarios (forced, spec version ${revision}):`);
    if (forcedResults.length > 0) say(formatTable(forcedResults));
    for (const result of placeholders) {
      say(`  SKIP  ${result.name}  the suite's harness runs no check yet (only SKIPPED); not counted`);
    }
  } else if (tasksResults.length > 0) {
    say(summaryLine(`conformance ${revision} (unscored tasks-*)`, tasksResults));
  }
  if (problem) say(`conformance: incomplete ${revision} run: ${problem}`);
  if (problem) return { code: 2, scored, tasks: forcedResults };
  return { code: failures > 0 ? 1 : 0, scored, tasks: forcedResults };
}

type ScenarioResults = ReturnType<typeof readScenarioResults>;

function isPlaceholder(result: ScenarioResults[number]): boolean {
  const ran = Object.entries(result.counts).some(([status, count]) => status !== 'SKIPPED' && count > 0);
  return result.outcome === 'no-success' && !ran && (result.counts.SKIPPED ?? 0) > 0;
}

exitOnSignal('SIGINT');
exitOnSignal('SIGTERM');
exitOnSignal('SIGHUP');
// Last resort if the process ends some other way: never leave a server behind.
process.on('exit', () => {
  running.baton?.killNow();
  running.suite?.kill();
});

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    say(`conformance: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
    await stopChildren();
    process.exit(2);
  },
);

/**
 * Start-up checks of a tool's earlier versions (`versions`, tool-versions.ts): a kept machine is
 * checked exactly as the current one is (it still runs flows to their end), and each entry must
 * name a version other than the current one, once, with a migration whose states exist on both
 * sides. Every problem names the tool, the version and the fix.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import type { EarlierVersion } from '../authoring/tool-versions.js';
import { machineProblems } from '../catalogue/machine-checks.js';
import { isRecord } from '../plain-objects.js';
import { structuralVersion } from '../state/structural-version.js';
import { taskProblems } from '../tasks/task-checks.js';

/** What structuralVersion() answers: 12 characters of base64url. */
const STRUCTURAL_VERSION = /^[A-Za-z0-9_-]{12}$/;

export function versionProblems(tool: ToolDefinition): string[] {
  const tag = `tool "${tool.name}"`;
  if (tool.versions === undefined) return [];
  if (!Array.isArray(tool.versions)) return [`${tag}: versions must be a list of earlier versions.`];
  const current = tool.machine?.root ? structuralVersion(tool.machine) : undefined;
  const seen = new Map<string, string>();
  const problems: string[] = [];
  tool.versions.forEach((raw: unknown, index: number) => {
    if (!isRecord(raw)) {
      problems.push(`${tag}: versions[${index}] must be an object like { machine } or { version, migrate }.`);
      return;
    }
    const entry = raw as EarlierVersion;
    const label = `${tag}, version ${entry.label ?? entry.version ?? `#${index + 1}`}`;
    const machine = entry.machine as AnyStateMachine | undefined;
    if (machine === undefined && entry.version === undefined) {
      problems.push(
        `${label}: keep its machine ({ machine }) or name the structural version a migration moves from ({ version, migrate }).`,
      );
      return;
    }
    if (entry.version !== undefined && !STRUCTURAL_VERSION.test(String(entry.version))) {
      problems.push(
        `${label}: version must be a structural version, 12 characters as the request_state_restarted log line names it.`,
      );
    }
    if (machine === undefined && entry.migrate === undefined) {
      problems.push(
        `${label}: with no machine kept, only a migration can continue its flows; add migrate or the machine.`,
      );
    }
    let version: string | undefined = entry.version;
    if (machine !== undefined) {
      const own = machineProblems(label, machine, tool.exampleArguments, {
        timeBudgetMs: tool.timeBudgetMs,
        taskMode: tool.task === 'required',
      });
      problems.push(...own);
      if (machine?.root) {
        problems.push(...taskProblems({ ...tool, machine }).map((problem) => problem.replace(tag, label)));
        const computed = structuralVersion(machine);
        if (version !== undefined && version !== computed) {
          problems.push(
            `${label}: the machine kept has structural version ${computed}, not ${version}. Drop version or keep the machine that was served.`,
          );
        }
        version = computed;
      }
    }
    if (version !== undefined && version === current) {
      problems.push(`${label}: is the current machine's own version (${version}); list only earlier versions.`);
    }
    if (version !== undefined) {
      const other = seen.get(version);
      if (other) problems.push(`${label}: version ${version} is listed twice (also as ${other}); keep one entry.`);
      seen.set(version, label);
    }
    if (entry.migrate !== undefined) problems.push(...migrationProblems(label, entry, tool.machine));
  });
  return problems;
}

function migrationProblems(label: string, entry: EarlierVersion, current: AnyStateMachine | undefined): string[] {
  const { migrate } = entry;
  if (!isRecord(migrate)) return [`${label}: migrate must be an object like { states, context }.`];
  const problems: string[] = [];
  if (migrate.context !== undefined && typeof migrate.context !== 'function') {
    problems.push(`${label}: migrate.context must be a function from the earlier context to the current one.`);
  }
  if (migrate.states === undefined) return problems;
  if (!isRecord(migrate.states)) return [...problems, `${label}: migrate.states must map state paths to state paths.`];
  for (const [from, to] of Object.entries(migrate.states)) {
    if (entry.machine?.root && !hasPath(entry.machine, from)) {
      problems.push(`${label}: migrate.states names "${from}", which the kept machine does not have.`);
    }
    if (typeof to !== 'string' || (current?.root && !hasPath(current, to))) {
      problems.push(
        `${label}: migrate.states sends "${from}" to "${String(to)}", which the current machine does not have.`,
      );
    }
  }
  return problems;
}

/** Whether `path` (`'review.legal'`) names a state under the machine's root. */
function hasPath(machine: AnyStateMachine, path: string): boolean {
  let node: AnyStateNode | undefined = machine.root;
  for (const step of path.split('.')) {
    node = node?.states[step];
    if (!node) return false;
  }
  return true;
}

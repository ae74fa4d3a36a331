/**
 * Starting new calls on an earlier version (docs/deploy.md, "Rolling deploys"): during a rolling
 * deploy, instances of the build before the change still serve, and they know only the earlier
 * version. A new build that starts flows on its new version sends them, round by round, to
 * instances that cannot continue them: they restart there. Started on the earlier version instead
 * (`BATON_START_ON=release=v1`), every flow is one any instance can continue; once no instance of
 * the earlier build is left, the setting goes and new calls start on the new version, which every
 * instance then knows.
 *
 * Served that way, the tool is the same tool with its kept machine and its current one swapped:
 * the kept machine starts new calls, and the current machine becomes a kept version, so states and
 * tasks it already made go on as before. Migrations declared onto the current machine do not
 * apply while it is not the one starting (their machine, when kept, still finishes their flows).
 */
import type { AnyStateMachine } from 'xstate';
import type { EarlierVersion } from '../authoring/tool-versions.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { ConfigurationError } from '../configuration-error.js';

/** `tool` as served when its new calls start on its kept version named `name` (a label or a structural version). */
export function startingOn(
  tool: ToolDefinition,
  name: string,
  versionOf: (machine: AnyStateMachine) => string,
): ToolDefinition {
  const versions = tool.versions ?? [];
  const named = (entry: EarlierVersion) =>
    entry.machine !== undefined && (entry.label === name || versionOf(entry.machine) === name);
  const start = versions.find(named);
  if (!start?.machine) {
    const kept = versions.filter((entry) => entry.machine).map((entry) => entry.label ?? versionOf(entry.machine!));
    throw new ConfigurationError(
      `Tool "${tool.name}" cannot start new calls on "${name}": ${
        kept.length === 0
          ? 'it keeps no earlier version.'
          : `the versions it keeps are ${kept.map((label) => `"${label}"`).join(', ')}.`
      } Keep that version's machine in its versions (docs/deploy.md).`,
    );
  }
  const current: EarlierVersion = { machine: tool.machine };
  const others = versions
    .filter((entry) => entry !== start)
    .flatMap((entry): EarlierVersion[] => {
      if (entry.migrate === undefined) return [entry];
      const { migrate: _migrate, ...kept } = entry;
      return kept.machine ? [kept] : [];
    });
  return { ...tool, machine: start.machine, versions: [current, ...others] };
}

/** The tools as served with `startOn` (tool name -> version name); an unknown tool name is refused. */
export function applyStartOn(
  tools: ToolDefinition[],
  startOn: Readonly<Record<string, string>> | undefined,
  versionOf: (machine: AnyStateMachine) => string,
): ToolDefinition[] {
  if (!startOn || Object.keys(startOn).length === 0) return tools;
  const unknown = Object.keys(startOn).filter((name) => !tools.some((tool) => tool.name === name));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `BATON_START_ON names ${unknown.map((name) => `"${name}"`).join(', ')}, which this server does not serve.`,
    );
  }
  return tools.map((tool) =>
    startOn[tool.name] === undefined ? tool : startingOn(tool, startOn[tool.name]!, versionOf),
  );
}

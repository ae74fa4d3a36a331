/**
 * `baton.versions.json`: each tool's structural version as last recorded, committed beside
 * package.json, so a change to a machine's structure is seen in review and in CI before it
 * restarts the flows in flight of a deploy (docs/deploy.md). The check passes when every tool is
 * as recorded; a tool whose structure changed passes only once recorded again, and may be
 * recorded only when its previous version is kept or migrated (`versions`), or when the author
 * says the restart is meant (`baton versions --restart TOOL`, written into the file).
 */
import type { AnyStateMachine } from 'xstate';
import { eachStateNode, structuralVersion, type ToolDefinition } from '../engine/index.js';

export const LOCKFILE_NAME = 'baton.versions.json';

export interface LockedTool {
  /** The structural version of the machine served. */
  version: string;
  /** Its state paths, so a change can be told as states added and removed. */
  states: string[];
  /** Earlier versions the tool keeps or migrates, by structural version: their labels. */
  kept?: Record<string, string>;
  /** Earlier versions whose flows were let restart on purpose (`--restart`), newest last. */
  restarted?: string[];
}

export interface Lockfile {
  $comment?: string;
  tools: Record<string, LockedTool>;
}

export type Finding =
  /** Recorded and served alike. */
  | { tool: string; kind: 'same' }
  /** Served, not recorded: a new tool (no flow of it in flight). */
  | { tool: string; kind: 'new' }
  /** Recorded, not served: its flows in flight will fail. */
  | { tool: string; kind: 'removed' }
  /** Changed, with the recorded version kept or migrated: safe, record it. */
  | { tool: string; kind: 'kept'; from: string; to: string; change: string }
  /** Changed, with the recorded version neither kept nor migrated: its flows in flight restart. */
  | { tool: string; kind: 'restarts'; from: string; to: string; change: string };

export function statePaths(machine: AnyStateMachine): string[] {
  const paths: string[] = [];
  eachStateNode(machine.root, (node) => {
    if (node.path.length > 0) paths.push(node.path.join('.'));
  });
  return paths.sort();
}

/** What the lockfile records for `tools` now; `restarted` carries over each tool's history. */
export function lockTools(tools: readonly ToolDefinition[], previous?: Lockfile): Lockfile {
  const entries: Record<string, LockedTool> = {};
  for (const tool of [...tools].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const kept: Record<string, string> = {};
    for (const entry of tool.versions ?? []) {
      const version = entry.version ?? (entry.machine ? structuralVersion(entry.machine) : undefined);
      if (version) kept[version] = entry.label ?? version;
    }
    const restarted = previous?.tools[tool.name]?.restarted;
    entries[tool.name] = {
      version: structuralVersion(tool.machine),
      states: statePaths(tool.machine),
      ...(Object.keys(kept).length > 0 ? { kept } : {}),
      ...(restarted?.length ? { restarted } : {}),
    };
  }
  return {
    $comment: 'Written by `baton versions`; `baton versions check` fails when a tool changed (docs/deploy.md).',
    tools: entries,
  };
}

/** Each tool served or recorded, compared with the lockfile. */
export function compareLockfile(tools: readonly ToolDefinition[], locked: Lockfile): Finding[] {
  const now = lockTools(tools).tools;
  const findings: Finding[] = [];
  for (const [name, entry] of Object.entries(now)) {
    const before = locked.tools[name];
    if (!before) findings.push({ tool: name, kind: 'new' });
    else if (before.version === entry.version) findings.push({ tool: name, kind: 'same' });
    else {
      const moved = { tool: name, from: before.version, to: entry.version, change: describeChange(before, entry) };
      findings.push({ ...moved, kind: entry.kept?.[before.version] === undefined ? 'restarts' : 'kept' });
    }
  }
  for (const name of Object.keys(locked.tools)) if (!now[name]) findings.push({ tool: name, kind: 'removed' });
  return findings;
}

/**
 * `states added: changelog` / `states renamed: askName -> askFullName` / `states removed: confirm;
 * added: approve` / `transitions or implementations`. A state removed and one added under the same
 * parent, one for one, reads as a rename (it is the same to the flows in flight: both restart).
 */
export function describeChange(before: LockedTool, after: LockedTool): string {
  const added = after.states.filter((state) => !before.states.includes(state));
  const removed = before.states.filter((state) => !after.states.includes(state));
  const parent = (path: string) => path.split('.').slice(0, -1).join('.');
  const renamed: string[] = [];
  for (const gone of [...removed]) {
    const siblingsGone = removed.filter((path) => parent(path) === parent(gone));
    const siblingsNew = added.filter((path) => parent(path) === parent(gone));
    if (siblingsGone.length === 1 && siblingsNew.length === 1) {
      renamed.push(`${gone} -> ${siblingsNew[0]}`);
      removed.splice(removed.indexOf(gone), 1);
      added.splice(added.indexOf(siblingsNew[0]!), 1);
    }
  }
  const parts: string[] = [];
  if (renamed.length > 0) parts.push(`states renamed: ${renamed.join(', ')}`);
  if (removed.length > 0) parts.push(`states removed: ${removed.join(', ')}`);
  if (added.length > 0) parts.push(`states added: ${added.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'same states; transitions, guards, actions or invoked actors changed';
}

/** What `baton versions check` says of a finding that is not `same`. */
export function findingMessage(finding: Finding): string {
  switch (finding.kind) {
    case 'same':
      return `${finding.tool}: as recorded.`;
    case 'new':
      return `${finding.tool}: not in ${LOCKFILE_NAME} yet. Record it: baton versions.`;
    case 'removed':
      return `${finding.tool}: recorded but no longer served; its flows in flight will fail. Record the removal: baton versions.`;
    case 'kept':
      return `${finding.tool}: changed (${finding.change}); ${finding.from} is kept, so its flows in flight go on. Record it: baton versions.`;
    case 'restarts':
      return (
        `${finding.tool}: changed (${finding.change}), and version ${finding.from} is neither kept nor migrated: ` +
        `every flow of it in flight would restart from its first question, and its tasks would fail. Keep it ` +
        `(versions: [{ machine }], docs/deploy.md), or accept the restart: baton versions --restart ${finding.tool}.`
      );
  }
}

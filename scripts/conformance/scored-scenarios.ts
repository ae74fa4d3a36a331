/**
 * Which server scenarios count. The suite ships the frozen requirement set of each spec revision
 * as `requirements/<revision>.yaml`: `server:` lists the scored scenarios, `not_scored:` the ones
 * that run for information only (`leg: server`, reason `extension` for the tasks-* scenarios or
 * `pending`). Reading that file keeps this script in step with the pinned suite instead of a
 * hand-copied list. If the file is ever missing, `conformance list --requirements <revision>`
 * prints the same sets, and is parsed instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ScenarioSets {
  /** Scored server scenarios, in the file's order. */
  scored: string[];
  /** Not-scored server scenarios, in the file's order. */
  unscored: string[];
  /** Where the sets were read from, for the log. */
  source: string;
}

/** The unscored tasks-* extension scenarios, reported on their own line. */
export function tasksScenarios(sets: ScenarioSets): string[] {
  return sets.unscored.filter((name) => name.startsWith('tasks-'));
}

/** The other unscored scenarios: pending in the suite's release, run for visibility. */
export function pendingScenarios(sets: ScenarioSets): string[] {
  return sets.unscored.filter((name) => !name.startsWith('tasks-'));
}

type Entry = string | Record<string, string>;

/**
 * Reads the top-level lists of a requirements file. This is not a general YAML parser: it reads
 * exactly the shape those files have (top-level keys holding block lists of scalars or of flat
 * `key: value` maps, `#` comment lines, folded `>-` notes that are skipped).
 */
export function parseRequirementLists(text: string): Map<string, Entry[]> {
  const lists = new Map<string, Entry[]>();
  let current: Entry[] | undefined;
  let item: Record<string, string> | undefined;
  let itemKeyIndent = -1;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*(#.*)?$/.test(raw)) continue;
    const topKey = /^([A-Za-z_][\w-]*):\s*$/.exec(raw);
    if (topKey) {
      current = [];
      lists.set(topKey[1]!, current);
      item = undefined;
      continue;
    }
    if (!current) continue;
    const listItem = /^(\s*)-\s+(.*)$/.exec(raw);
    if (listItem) {
      const content = listItem[2]!.trim();
      const pair = /^([\w-]+):\s*(.*)$/.exec(content);
      if (pair) {
        item = { [pair[1]!]: unquote(pair[2]!) };
        itemKeyIndent = listItem[1]!.length + raw.slice(listItem[1]!.length).indexOf(content);
        current.push(item);
      } else {
        item = undefined;
        current.push(unquote(content));
      }
      continue;
    }
    // A further `key: value` of the current map item sits exactly under its first key; deeper
    // lines are the continuation of a folded scalar (notes) and are skipped.
    const indent = raw.length - raw.trimStart().length;
    const pair = /^\s*([\w-]+):\s*(.*)$/.exec(raw);
    if (item && pair && indent === itemKeyIndent) item[pair[1]!] = unquote(pair[2]!);
  }
  return lists;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(['"])(.*)\1$/.exec(trimmed);
  return quoted ? quoted[2]! : trimmed;
}

/** The server scenario sets of a requirements file's text. */
export function scenarioSetsFromRequirements(text: string, source: string): ScenarioSets {
  const lists = parseRequirementLists(text);
  const scored = (lists.get('server') ?? []).filter((entry): entry is string => typeof entry === 'string');
  const unscored = (lists.get('not_scored') ?? [])
    .filter((entry): entry is Record<string, string> => typeof entry === 'object')
    .filter((entry) => entry.leg === 'server' && entry.scenario)
    .map((entry) => entry.scenario!);
  return { scored, unscored, source };
}

/**
 * The server scenario sets from `conformance list --requirements <revision>`, whose output has a
 * `Server scenarios` block of `  - name` lines and, under `Run and reported, but never scored`,
 * lines `    - name [server]`.
 */
export function scenarioSetsFromListOutput(text: string, source: string): ScenarioSets {
  const scored: string[] = [];
  const unscored: string[] = [];
  let section: 'server' | 'unscored' | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^Server scenarios/.test(line)) section = 'server';
    else if (/^Run and reported, but never scored/.test(line)) section = 'unscored';
    else if (/^\S/.test(line)) section = undefined;
    const entry = /^\s+-\s+(\S+)(?:\s+\[(\w+)\])?\s*$/.exec(line);
    if (!entry) continue;
    if (section === 'server') scored.push(entry[1]!);
    if (section === 'unscored' && entry[2] === 'server') unscored.push(entry[1]!);
  }
  return { scored, unscored, source };
}

/**
 * The server scenario sets of `revision`, from the installed package's requirements file, or
 * from `listOutput()` (the suite's `list --requirements` output) when the file is absent.
 * Throws if neither yields a scored scenario.
 */
export function loadScenarioSets(packageDir: string, revision: string, listOutput: () => string): ScenarioSets {
  const file = join(packageDir, 'requirements', `${revision}.yaml`);
  const sets = existsSync(file)
    ? scenarioSetsFromRequirements(readFileSync(file, 'utf8'), file)
    : scenarioSetsFromListOutput(listOutput(), `conformance list --requirements ${revision}`);
  if (sets.scored.length === 0) {
    throw new Error(`found no scored server scenarios for ${revision} in ${sets.source}.`);
  }
  return sets;
}

/**
 * Start-up check: every handler for `answer.<key>.*` names a key some question of the machine
 * asks. The engine only builds answer events for keys it asked, so a handler for another key
 * (a typo: `answer.justifcation.accept`) can never run; the state then never hears the answer.
 */
import type { AnyStateMachine } from 'xstate';
import { eachStateNode } from '../state-nodes.js';
import { HOW_TO_ASK } from './how-to-ask.js';
import { INPUT_META, type Question } from '../authoring/input-states.js';

const ANSWER_EVENT = /^answer\.(.+)\.(accept|decline|cancel|result|unsupported|\*)$/;

/** Levenshtein distance, for naming the key a misspelled one was meant to be. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

export function answerHandlerProblems(label: string, machine: AnyStateMachine): string[] {
  const asked = new Set<string>();
  eachStateNode(machine.root, (node) => {
    const question = (node.meta as Record<string, unknown> | undefined)?.[INPUT_META] as Question | undefined;
    if (question?.key) asked.add(question.key);
  });
  const problems: string[] = [];
  eachStateNode(machine.root, (node) => {
    for (const eventType of node.transitions.keys()) {
      const key = ANSWER_EVENT.exec(eventType)?.[1];
      if (key === undefined || asked.has(key)) continue;
      const near = closest(key, asked);
      const hint =
        near === undefined
          ? `No question of this machine asks anything. ${HOW_TO_ASK}`
          : `Did you mean "answer.${near}.…"? The questions ask ${[...asked].map((k) => `"${k}"`).join(', ')}.`;
      problems.push(
        `${label}, state "${node.id}": handles "${eventType}" but no question asks "${key}", so it can never run. ${hint}`,
      );
    }
  });
  return problems;
}

/**
 * Question states written as plain data in a `toolSetup` machine config:
 *
 *   confirm: {
 *     tags: ['baton.input'],
 *     meta: { 'baton.input': { key: 'confirm' } },
 *     on: { 'answer.confirm.accept': 'deploying', 'answer.confirm.decline': 'cancelled', … },
 *   }
 *
 * The state names a question declared once in `toolSetup({ questions })`; `createMachine` puts
 * the declared question (kind, message, schema, …) in its place, so the machine the engine runs
 * carries exactly what `askForm` and `ask.<key>(…)` write. The config stays an object literal
 * that XState's tooling (the Stately editor's parser, @xstate/graph) reads whole.
 */
import { ConfigurationError } from '../configuration-error.js';
import { INPUT_META, type Question } from './input-states.js';
import type { QuestionSpec } from './question-specs.js';

/**
 * The question `spec` declares under `key`, as the engine reads it from a state's meta: the
 * fields in the order the ask… helpers write them, so either way gives the same machine.
 */
export function questionOf(key: string, spec: QuestionSpec): Question {
  switch (spec.kind) {
    case 'form': {
      const { message, schema, notSecret } = spec;
      return { kind: 'form', key, message, schema, ...(notSecret ? { notSecret: [...notSecret] } : {}) } as Question;
    }
    case 'url': {
      const { message, url, subject } = spec;
      return { kind: 'url', key, message, url, ...(subject === undefined ? {} : { subject }) };
    }
    case 'sampling':
      return { kind: 'sampling', key, request: spec.request };
    default:
      return { kind: 'roots', key };
  }
}

type Config = Record<string, unknown>;

/**
 * A copy of `config` where each state whose meta names a declared question by `{ key }` holds
 * that question whole. A question written out whole (it has a `kind`) is left as it is.
 */
export function withDeclaredQuestions<T extends object>(config: T, questions: Record<string, QuestionSpec>): T {
  const visit = (node: Config, path: string): Config => {
    let copy: Config = node;
    const meta = node.meta as Config | undefined;
    const ref = meta?.[INPUT_META] as { key?: unknown; kind?: unknown } | undefined;
    if (ref && typeof ref === 'object' && ref.kind === undefined) {
      const key = String(ref.key);
      const spec = Object.hasOwn(questions, key) ? questions[key] : undefined;
      if (!spec) {
        const declared = Object.keys(questions).map((k) => `"${k}"`);
        throw new ConfigurationError(
          `createMachine: state "${path}" asks "${key}", which toolSetup({ questions }) does not declare. Declared: ${declared.join(', ') || 'none'}.`,
        );
      }
      copy = { ...node, meta: { ...meta, [INPUT_META]: questionOf(key, spec) } };
    }
    const states = node.states as Record<string, Config> | undefined;
    if (states && typeof states === 'object') {
      copy = {
        ...copy,
        states: Object.fromEntries(
          Object.entries(states).map(([name, child]) => [name, visit(child, path ? `${path}.${name}` : name)]),
        ),
      };
    }
    return copy;
  };
  return visit(config as Config, '') as T;
}

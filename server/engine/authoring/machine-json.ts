/**
 * Completing a machine config kept as JSON (as visual statechart editors export it). Names in the
 * JSON are implemented by `setup({ actions, guards, actors, delays })`; what JSON cannot hold at all
 * is a function of the context in the config itself, chiefly the `input` of an invoked actor. This
 * adds those by actor name, so the JSON stays exactly what the editor wrote.
 */
import { ConfigurationError } from '../configuration-error.js';

type Config = Record<string, unknown>;
/** Computes an invoked actor's `input` from the machine's context and event, for `withActorInputs`. */
export type ActorInput = (args: { context: any; event: any; self: any }) => unknown;

/**
 * A deep copy of `config` where every `invoke` whose `src` is a key of `inputs` gets that
 * function as its `input`. Naming an actor the config never invokes is a configuration error.
 */
export function withActorInputs<T extends object>(config: T, inputs: Record<string, ActorInput>): T {
  const used = new Set<string>();
  const visit = (node: Config): Config => {
    const copy: Config = { ...node };
    if (node.invoke !== undefined) {
      const list = (Array.isArray(node.invoke) ? node.invoke : [node.invoke]) as Config[];
      const invokes = list.map((invoke) => {
        const src = invoke.src;
        if (typeof src !== 'string' || !(src in inputs)) return invoke;
        used.add(src);
        return { ...invoke, input: inputs[src] };
      });
      copy.invoke = Array.isArray(node.invoke) ? invokes : invokes[0];
    }
    if (node.states && typeof node.states === 'object') {
      copy.states = Object.fromEntries(
        Object.entries(node.states as Record<string, Config>).map(([key, child]) => [key, visit(child)]),
      );
    }
    return copy;
  };
  const completed = visit(config as Config) as T;
  const unused = Object.keys(inputs).filter((src) => !used.has(src));
  if (unused.length > 0) {
    throw new ConfigurationError(
      `withActorInputs: the machine config invokes no actor named ${unused.map((s) => `"${s}"`).join(', ')}. Check the src names in the JSON.`,
    );
  }
  return completed;
}

/**
 * Free text in tool arguments is bounded, as free-text answers are (flow/answers.ts): a string
 * whose schema sets no `maxLength` may be at most DEFAULT_ARGUMENT_MAX_LENGTH characters. A task
 * keeps its arguments for as long as it runs, and a flow's questions may quote them, so an
 * unbounded string in a schema that forgot `maxLength` (900 KB in one red-team probe) would cost
 * that much per task and per notification. A tool that takes long text says so with `maxLength`.
 */
import { isRecord } from '../plain-objects.js';

export const DEFAULT_ARGUMENT_MAX_LENGTH = 4096;

/** A string found too long: its bound, and the steps to it, collected innermost first. */
interface Overlong {
  max: number;
  steps: string[];
}

/**
 * The first string longer than its schema allows, as a reason for the model, or undefined. It runs
 * on every call: the path is spelled out only once a string is found, on the way back out.
 */
export function overlongArgument(schema: unknown, value: unknown): string | undefined {
  const found = overlong(schema, value);
  return found && `arguments${found.steps.reverse().join('')} is longer than ${found.max} characters`;
}

function overlong(schema: unknown, value: unknown): Overlong | undefined {
  if (typeof value === 'string') {
    const max =
      isRecord(schema) && typeof schema.maxLength === 'number' ? schema.maxLength : DEFAULT_ARGUMENT_MAX_LENGTH;
    return value.length > max ? { max, steps: [] } : undefined;
  }
  if (Array.isArray(value)) {
    const items = isRecord(schema) ? schema.items : undefined;
    for (let index = 0; index < value.length; index++) {
      const found = overlong(Array.isArray(items) ? items[index] : items, value[index]);
      if (found) return via(found, `[${index}]`);
    }
    return undefined;
  }
  if (isRecord(value)) {
    const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : undefined;
    const additional = isRecord(schema) ? schema.additionalProperties : undefined;
    for (const name of Object.keys(value)) {
      const own = properties && Object.hasOwn(properties, name) ? properties[name] : additional;
      const found = overlong(own, value[name]);
      if (found) return via(found, `.${name}`);
    }
  }
  return undefined;
}

function via(found: Overlong, step: string): Overlong {
  found.steps.push(step);
  return found;
}

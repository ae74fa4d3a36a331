/**
 * Free text in tool arguments is bounded, as free-text answers are (flow/answers.ts): a string
 * whose schema sets no `maxLength` may be at most DEFAULT_ARGUMENT_MAX_LENGTH characters. A task
 * keeps its arguments for as long as it runs, and a flow's questions may quote them, so an
 * unbounded string in a schema that forgot `maxLength` (900 KB in one red-team probe) would cost
 * that much per task and per notification. A tool that takes long text says so with `maxLength`.
 */
import { isRecord } from '../plain-objects.js';

export const DEFAULT_ARGUMENT_MAX_LENGTH = 4096;

/** The first string longer than its schema allows, as a reason for the model, or undefined. */
export function overlongArgument(schema: unknown, value: unknown, path = 'arguments'): string | undefined {
  if (typeof value === 'string') {
    const max =
      isRecord(schema) && typeof schema.maxLength === 'number' ? schema.maxLength : DEFAULT_ARGUMENT_MAX_LENGTH;
    return value.length > max ? `${path} is longer than ${max} characters` : undefined;
  }
  if (Array.isArray(value)) {
    const items = isRecord(schema) ? schema.items : undefined;
    for (const [index, item] of value.entries()) {
      const problem = overlongArgument(Array.isArray(items) ? items[index] : items, item, `${path}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isRecord(value)) {
    const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
    const additional = isRecord(schema) ? schema.additionalProperties : undefined;
    for (const [name, item] of Object.entries(value)) {
      const own = Object.hasOwn(properties, name) ? properties[name] : additional;
      const problem = overlongArgument(own, item, `${path}.${name}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

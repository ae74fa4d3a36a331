/**
 * JSON Schema validation (2020-12, the spec's default dialect) with compiled validators cached by
 * schema text, so a question asked on every round compiles once.
 *
 * `format` is checked (ajv-formats, full mode: a `date` must be a real calendar date): in MCP's
 * elicitation subset it is the only way to ask for a date, a time or an e-mail address, and an
 * answer is checked against exactly what was asked. Formats ajv-formats does not know are
 * ignored, as the 2020-12 dialect allows (format as an annotation).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { default as addFormats } from 'ajv-formats';

const MAX_CACHED = 500;

export class JsonSchemaValidator {
  readonly #ajv = withFormats(new Ajv2020({ allErrors: false, strict: false, logger: false }));
  readonly #cache = new Map<string, ValidateFunction>();
  /** Static schemas are the same object every time: skip serialising them to find their validator. */
  readonly #bySchema = new WeakMap<object, ValidateFunction>();

  compile(schema: object): ValidateFunction {
    const known = this.#bySchema.get(schema);
    if (known) return known;
    const text = JSON.stringify(schema);
    let validate = this.#cache.get(text);
    if (!validate) {
      validate = this.#ajv.compile(schema);
      if (this.#cache.size >= MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(text, validate);
    }
    this.#bySchema.set(schema, validate);
    return validate;
  }

  /**
   * Undefined when valid, else one short human-readable reason naming where: a field of an
   * answer by its name (`email must match format "email"`), or under `root` when one is given
   * (`arguments.email …`, as the argument size check words it).
   */
  check(schema: object, value: unknown, root?: string): string | undefined {
    const validate = this.compile(schema);
    if (validate(value)) return undefined;
    const [first] = validate.errors ?? [];
    const path = first?.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : '';
    const where = root ? (path ? `${root}.${path}` : root) : path || 'the answer';
    return `${where} ${first?.message ?? 'is invalid'}`;
  }
}

function withFormats(ajv: Ajv2020): Ajv2020 {
  (addFormats as unknown as (ajv: Ajv2020, options: { mode: 'full' }) => Ajv2020)(ajv, { mode: 'full' });
  return ajv;
}

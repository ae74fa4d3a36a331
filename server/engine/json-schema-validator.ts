/**
 * JSON Schema validation (2020-12, the spec's default dialect) with compiled validators cached by
 * schema text, so a question asked on every round compiles once.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const MAX_CACHED = 500;

export class JsonSchemaValidator {
  readonly #ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: false });
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

  /** Undefined when valid, else one short human-readable reason. */
  check(schema: object, value: unknown): string | undefined {
    const validate = this.compile(schema);
    if (validate(value)) return undefined;
    const [first] = validate.errors ?? [];
    if (!first) return 'is invalid';
    const where = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'the answer';
    return `${where} ${first.message ?? 'is invalid'}`;
  }
}

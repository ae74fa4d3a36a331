/**
 * The accept answers a test gives for one question (`answers: { date: ['2026-12-05', …] }`), as
 * the `inputResponses` values a client sends: a whole response (`accept({…})`, `decline()`) as it
 * is, form content as an accept, and a bare value as the content of a form with one field.
 */
type Schema = Record<string, unknown>;

function isResponse(value: unknown): value is { action: string } {
  return typeof value === 'object' && value !== null && typeof (value as { action?: unknown }).action === 'string';
}

export function acceptVariants(key: string, variants: readonly unknown[], schema: Schema | undefined): unknown[] {
  return variants.map((variant) => {
    if (isResponse(variant)) return variant;
    if (typeof variant === 'object' && variant !== null && !Array.isArray(variant)) {
      return { action: 'accept', content: variant };
    }
    const fields = Object.keys((schema?.properties ?? {}) as Schema);
    if (fields.length !== 1) {
      throw new Error(
        `answers.${key}: ${JSON.stringify(variant)} is not form content, and the question asks ${fields.length} fields (${fields.join(', ')}): give the content as an object, e.g. { ${fields[0] ?? 'field'}: … }`,
      );
    }
    return { action: 'accept', content: { [fields[0]!]: variant } };
  });
}

/**
 * Form fields that ask for a secret. The spec forbids them (client/elicitation, "Form Mode
 * Security": servers MUST NOT request passwords, API keys or tokens via form mode; URL mode is for
 * that), since a form's answer passes through the client and the model's context. Found by
 * `format: "password"` or by a name that says secret; a field that merely looks like one (a
 * `tokenCount`) is let through by listing it in the question's `notSecret`.
 */
const SECRET_NAME = /pass(word|wd|phrase|code)|secret|token|api_?key|private_?key|access_?key|credential/i;

/** The names of the schema's properties that ask for a secret, minus those declared not secret. */
export function secretFields(schema: unknown, notSecret: readonly string[] = []): string[] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const allowed = new Set(notSecret);
  return Object.entries(properties as Record<string, unknown>)
    .filter(([name, property]) => {
      if (allowed.has(name)) return false;
      const format = (property as { format?: unknown } | undefined)?.format;
      return format === 'password' || SECRET_NAME.test(name.replace(/[-\s]/g, '_'));
    })
    .map(([name]) => name);
}

export function secretFieldsMessage(where: string, fields: string[]): string {
  return `${where}: the form asks for ${fields.map((f) => `"${f}"`).join(', ')}, which looks like a secret. Forms must not ask for secrets (spec, client/elicitation): send the user to a page with askUrl instead. If the field is not a secret, list it in the question's notSecret.`;
}

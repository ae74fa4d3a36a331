/**
 * Plain data written as source text: as a TypeScript literal (single quotes, bare keys where
 * they are identifiers, the style of the examples and the scaffold) or as JSON with a space
 * inside braces (the style of the JSON machine files). One line: the edits insert small values.
 */
export type LiteralStyle = 'ts' | 'json';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function quoted(value: string, style: LiteralStyle): string {
  if (style === 'json') return JSON.stringify(value);
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

export function literal(value: unknown, style: LiteralStyle): string {
  if (typeof value === 'string') return quoted(value, style);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, style)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const body = entries
      .map(([key, v]) => `${style === 'ts' && IDENTIFIER.test(key) ? key : quoted(key, style)}: ${literal(v, style)}`)
      .join(', ');
    return `{ ${body} }`;
  }
  throw new TypeError(`not plain data: ${typeof value}`);
}

/**
 * A JSON machine file stays JSON after an edit. The parser reads it as `createMachine(<json>)` and
 * recast reprints only what an edit touched, so the untouched text is the file's own; what it
 * printed new is a JavaScript literal (bare keys, single quotes). This turns exactly those tokens
 * into JSON and checks that the whole still parses as JSON.
 */
import { EditRefused } from './editor-edit.js';
import { sourceSyntax } from './statechart-source.js';

function walk(node: any, visit: (node: any) => void): void {
  if (!node || typeof node !== 'object') return;
  if (typeof node.type === 'string') visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'tokens' || key === 'comments' || key === 'extra') continue;
    if (Array.isArray(value)) for (const item of value) walk(item, visit);
    else if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string')
      walk(value, visit);
  }
}

/** `text` (an object literal) as JSON text, changing only keys and strings that are not JSON yet. */
export function asJsonText(text: string): string {
  const prefix = 'const config = (';
  const file = sourceSyntax(`${prefix}${text});`);
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  walk(file.program, (node) => {
    if (node.type === 'ObjectProperty' && !node.computed) {
      const key = node.key;
      if (key.type === 'Identifier')
        replacements.push({ start: key.start, end: key.end, text: JSON.stringify(key.name) });
      if (key.type === 'NumericLiteral')
        replacements.push({ start: key.start, end: key.end, text: JSON.stringify(String(key.value)) });
    }
    if (node.type === 'StringLiteral' && !String(node.extra?.raw ?? '"').startsWith('"')) {
      replacements.push({ start: node.start, end: node.end, text: JSON.stringify(node.value) });
    }
  });
  let json = `${prefix}${text});`;
  for (const r of replacements.sort((a, b) => b.start - a.start)) {
    json = json.slice(0, r.start) + r.text + json.slice(r.end);
  }
  json = json.slice(prefix.length, -2);
  try {
    JSON.parse(json);
  } catch (error) {
    throw new EditRefused(
      `The edited machine is no longer JSON (${(error as Error).message}); the file is left as it was.`,
    );
  }
  return json;
}

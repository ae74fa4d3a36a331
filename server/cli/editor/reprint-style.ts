/**
 * recast reprints a changed object literal in its own style in two ways the author did not write:
 * a blank line after every multi-line property, and double quotes on every string it prints anew.
 * These undo exactly that: a blank line stays only where the original had one between the same
 * two lines, and a new double-quoted string takes the file's quotes when the file writes single
 * ones. The author's own text, untouched by the edit, is never changed.
 */
import { sourceSyntax } from './statechart-source.js';

/** Pairs of (line before, line after) that the original separates with a blank line. */
function blankPairs(original: string): Set<string> {
  const lines = original.split('\n').map((line) => line.trim());
  const pairs = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] !== '') continue;
    let next = i;
    while (next < lines.length && lines[next] === '') next++;
    pairs.add(`${lines[i - 1]}\n${lines[next] ?? ''}`);
  }
  return pairs;
}

export function withoutNewBlankLines(original: string, reprinted: string): string {
  const keep = blankPairs(original);
  const lines = reprinted.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '' || out.length === 0) {
      out.push(lines[i]!);
      continue;
    }
    let next = i;
    while (next < lines.length && lines[next]!.trim() === '') next++;
    const pair = `${out.at(-1)!.trim()}\n${(lines[next] ?? '').trim()}`;
    if (keep.has(pair)) out.push(...lines.slice(i, next));
    i = next - 1;
  }
  return out.join('\n');
}

/** `reprinted` (an expression) with the double-quoted strings the original does not have in single quotes. */
export function withFileQuotes(original: string, reprinted: string): string {
  const singles = (original.match(/'[^'\n]*'/g) ?? []).length;
  const doubles = (original.match(/"[^"\n]*"/g) ?? []).length;
  if (singles <= doubles) return reprinted;
  const prefix = 'const config = (';
  const wrapped = `${prefix}${reprinted});`;
  const changes: Array<{ start: number; end: number; text: string }> = [];
  const visit = (node: any) => {
    if (!node || typeof node !== 'object') return;
    if (node.type === 'StringLiteral') {
      const raw = wrapped.slice(node.start, node.end);
      if (raw.startsWith('"') && !original.includes(raw)) {
        const single = `'${JSON.stringify(node.value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
        changes.push({ start: node.start, end: node.end, text: single });
      }
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'tokens' || key === 'comments' || key === 'extra') continue;
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') visit(value);
    }
  };
  visit(sourceSyntax(wrapped).program);
  let text = wrapped;
  for (const change of changes.sort((a, b) => b.start - a.start)) {
    text = text.slice(0, change.start) + change.text + text.slice(change.end);
  }
  return text.slice(prefix.length, -2);
}

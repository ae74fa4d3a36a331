import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { addTypeCheckFiles, typeErrors, type TypeError } from '../helpers/type-check.js';

describe('the test kit’s answers, typed from the questions (typed-answers.types.ts)', () => {
  const file = fileURLToPath(new URL('./typed-answers.types.ts', import.meta.url));
  const lines = readFileSync(file, 'utf8').split('\n');
  const isMarker = (line: string) => line.trim().startsWith('// @ts-expect-error');
  /** 1-based line of each marker: the line it covers has that index (0-based). */
  const marked = lines.flatMap((line, index) => (isMarker(line) ? [index + 1] : []));
  // Without the markers, each marked line must fail to compile, and nothing else may.
  addTypeCheckFiles({ [file]: lines.map((line) => (isMarker(line) ? '' : line)).join('\n') });
  let diagnostics: TypeError[];

  before(function () {
    this.timeout(180_000); // a type check of the authoring API, the kit and XState's types
    diagnostics = typeErrors(file);
  });

  it('makes each wrong answer a compile error of its own line, and every right one compile', () => {
    expect(marked).to.have.length(6);
    const errorLines = new Set(diagnostics.map((d) => d.line));
    expect([...errorLines].sort((a, b) => a - b)).to.deep.equal(marked);
  });

  it('ends each error with a short line naming what is wrong', () => {
    for (const line of marked) {
      const text = diagnostics
        .filter((d) => d.line === line)
        .map((d) => d.text)
        .join('\n');
      expect(text, `line ${line + 1}`).not.to.match(/kind|message|schema/);
      const last = text.split('\n').at(-1)!;
      // The wrong value or name, or the type of a bare value where the form has several fields.
      const wrong =
        ['platfrom', 'nte', 'taem'].find((word) => new RegExp(`\\b${word}\\b`).test(lines[line]!)) ?? 'boolean';
      expect(last, `line ${line + 1}: ${last}`).to.match(new RegExp(`\\b${wrong}\\b`));
      if (!/question key/.test(lines[line - 1]!)) expect(last.length, `line ${line + 1}: ${last}`).to.be.at.most(160);
    }
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { FlowEngine, ToolRegistry } from '../../../server/engine/index.js';
import { addTypeCheckFiles, typeErrors, type TypeError } from '../../helpers/type-check.js';
import { testKeyRing } from '../fixtures/keys.js';
import { accept, DECLINE, Driver, expectAsked, expectComplete } from '../fixtures/flow.js';
import { expenseApprovalTool } from './expense-approval.js';

describe('toolSetup', () => {
  const driver = (args: Record<string, unknown> = { amount: 1200, purpose: 'conference' }) =>
    new Driver(new FlowEngine({ keyRing: testKeyRing() }), expenseApprovalTool, args);

  it('builds a tool that passes the start-up checks, with the schemas given once', () => {
    expect(() => new ToolRegistry([expenseApprovalTool])).not.to.throw();
    expect(expenseApprovalTool.inputSchema).to.have.property('required').that.deep.equals(['amount', 'purpose']);
  });

  it('asks the two parallel questions in one round, then confirms, files, and returns the final output', async () => {
    const flow = driver();
    const first = await flow.ask();
    expect(Object.keys(first.inputRequests)).to.have.members(['justification', 'manager']);
    const second = expectAsked(
      await flow.answer(first, {
        justification: accept({ justification: 'talk accepted' }),
        manager: accept({ manager: 'ada' }),
      }),
      ['confirm'],
    );
    const output = expectComplete(await flow.answer(second, { confirm: accept({ confirm: true }) }));
    expect(output).to.deep.equal({ filed: true, manager: 'ada', justification: 'talk accepted' });
  });

  it('routes a decline through the handler given to ask', async () => {
    const flow = driver({ amount: 10, purpose: 'coffee' });
    const first = await flow.ask();
    expect(Object.keys(first.inputRequests)).to.deep.equal(['confirm']);
    expect(expectComplete(await flow.answer(first, { confirm: DECLINE }))).to.deep.equal({ filed: false });
  });

  describe('misspellings (tool-setup.types.ts)', () => {
    const file = fileURLToPath(new URL('./tool-setup.types.ts', import.meta.url));
    const lines = readFileSync(file, 'utf8').split('\n');
    const isMarker = (line: string) => line.trim().startsWith('// @ts-expect-error');
    /** 1-based line of each marker: the line it covers has that index (0-based). */
    const marked = lines.flatMap((line, index) => (isMarker(line) ? [index + 1] : []));
    // Without the markers, each marked line must fail to compile, and nothing else may.
    addTypeCheckFiles({ [file]: lines.map((line) => (isMarker(line) ? '' : line)).join('\n') });
    let diagnostics: TypeError[];

    before(function () {
      this.timeout(180_000); // a type check of the authoring API and XState's types
      diagnostics = typeErrors(file);
    });

    it('makes each misspelling a compile error of its own line', () => {
      expect(marked.length).to.be.greaterThanOrEqual(15);
      const errorLines = new Set(diagnostics.map((d) => d.line));
      expect([...errorLines].sort((a, b) => a - b)).to.deep.equal(marked);
    });

    it('reports a misspelled target in one short sentence that names it, then the nearest valid target', () => {
      const targetLines = marked.filter((line) => lines[line - 1]!.includes('misspelled target'));
      expect(targetLines).to.have.length.greaterThanOrEqual(2);
      for (const line of targetLines) {
        const [error, ...others] = diagnostics.filter((d) => d.line === line);
        expect(others, `line ${line + 1}`).to.be.empty;
        expect(error!.text, `line ${line + 1}`).not.to.include('\n');
        expect(error!.text.length, `line ${line + 1}: ${error!.text}`).to.be.at.most(160);
        // The message ends with the sentence, which names the bad target before the valid one.
        expect(error!.text, `line ${line + 1}`).to.match(
          /is not assignable to type '"no state 'filde' here: did you mean 'filed'\?"'\.$/,
        );
      }
    });

    it('reports a misspelled guard or action in a plain state in one short sentence naming the nearest', () => {
      const nameLines = marked.filter((line) => /misspelled (guard|action) in a plain/.test(lines[line - 1]!));
      expect(nameLines).to.have.length(2);
      for (const line of nameLines) {
        const [error, ...others] = diagnostics.filter((d) => d.line === line);
        expect(others, `line ${line + 1}`).to.be.empty;
        expect(error!.text.length, `line ${line + 1}: ${error!.text}`).to.be.at.most(160);
        expect(error!.text, `line ${line + 1}`).to.match(
          /'"no (guard 'confirmd': did you mean 'confirmed'|action 'bok': did you mean 'book')\?"'\.$/,
        );
      }
    });

    it('reports a wrong example answer by the value or name that is wrong, in a few short lines', () => {
      const answerLines = marked.filter((line) => /example answer|examples\[\]\.answers/.test(lines[line - 1]!));
      expect(answerLines).to.have.length.greaterThanOrEqual(4);
      for (const line of answerLines) {
        const text = diagnostics
          .filter((d) => d.line === line)
          .map((d) => d.text)
          .join('\n');
        // The types printed are the responses (FormResponse<…>), never the question declarations,
        // and the last line says what is wrong in one short sentence naming it.
        expect(text, `line ${line + 1}`).not.to.match(/kind|message|schema/);
        const last = text.split('\n').at(-1)!;
        const wrong = /\b(platfrom|nte|taem|justifcation)\b/.exec(lines[line]!)?.[0];
        expect(last, `line ${line + 1}`).to.match(new RegExp(`['"]${wrong}['"]`));
        // A wrong key is one line naming it and the keys there are; a wrong value ends in a short line.
        if (/question key|not asked/.test(lines[line - 1]!)) expect(text, `line ${line + 1}`).not.to.include('\n');
        else expect(last.length, `line ${line + 1}: ${last}`).to.be.at.most(160);
      }
    });

    it("reports a plain question state's wrong key, missing tag or missing answer in one short sentence", () => {
      const questionLines = marked.filter((line) =>
        /question key in a plain|without the baton.input tag|does not handle a decline/.test(lines[line - 1]!),
      );
      expect(questionLines).to.have.length(3);
      for (const line of questionLines) {
        const [error, ...others] = diagnostics.filter((d) => d.line === line);
        expect(others, `line ${line + 1}`).to.be.empty;
        expect(error!.text, `line ${line + 1}`).not.to.include('\n');
        expect(error!.text.length, `line ${line + 1}: ${error!.text}`).to.be.at.most(160);
        // The sentence names the question and what is wrong with its state.
        expect(error!.text, `line ${line + 1}`).to.match(
          /'"(no question 'confrim' is declared: did you mean 'confirm'\?|the state asking 'confirm' (needs tags: \['baton\.input'\]|does not handle 'answer\.confirm\.decline'))"'\.$/,
        );
      }
    });
  });
});

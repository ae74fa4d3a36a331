import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import { FlowEngine, ToolRegistry } from '../../../server/engine/index.js';
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

  it('makes each misspelling in tool-setup.types.ts a compile error of its own line', () => {
    const file = fileURLToPath(new URL('./tool-setup.types.ts', import.meta.url));
    const source = readFileSync(file, 'utf8');
    const lines = source.split('\n');
    const isMarker = (line: string) => line.trim().startsWith('// @ts-expect-error');
    const marked = lines.flatMap((line, index) => (isMarker(line) ? [index + 1] : []));
    expect(marked.length).to.be.greaterThanOrEqual(10);
    // Without the markers, each marked line must fail to compile, and nothing else may.
    const stripped = lines.map((line) => (isMarker(line) ? '' : line)).join('\n');
    const config = ts.getParsedCommandLineOfConfigFile(
      fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    host.readFile = (name) => (name === file ? stripped : readFile(name));
    const program = ts.createProgram([file], { ...config.options, noEmit: true }, host);
    const errorLines = new Set(
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line),
    );
    // A marker on line n (1-based) covers line n + 1, which is index n.
    expect([...errorLines].sort((a, b) => a - b)).to.deep.equal(marked);
  });
});

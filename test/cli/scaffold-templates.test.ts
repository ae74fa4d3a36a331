/**
 * What `baton new` writes compiles under the repository's strict settings: the tool and its test,
 * laid out as `baton new` lays them out in this repository, checked by the compiler in process
 * (the files exist only in memory). A change to the authoring types that breaks the scaffold
 * fails here, before an author meets it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import { testSource, toolSource } from '../../server/cli/scaffold-templates.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('scaffold templates', () => {
  it('writes a tool and a test that compile with strict TypeScript', function () {
    this.timeout(180_000); // a type check of the authoring API, the test kit and XState's types
    const toolPath = join(ROOT, 'machines', 'tools', 'scaffold-check.ts');
    const testPath = join(ROOT, 'test', 'machines', 'tools', 'scaffold-check.test.ts');
    const files = new Map([
      [toolPath, toolSource('scaffold-check', { authoring: '../../server/engine/index.js', testing: '', tool: '' })],
      [
        testPath,
        testSource('scaffold-check', {
          authoring: '',
          testing: '../../../server/testing/index.js',
          tool: '../../../machines/tools/scaffold-check',
        }),
      ],
    ]);
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    expect(config.options.strict).to.equal(true);
    const host = ts.createCompilerHost(config.options);
    const { fileExists, readFile } = host;
    host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
    host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
    const program = ts.createProgram([...files.keys()], { ...config.options, noEmit: true }, host);
    const errors = [...files.keys()].flatMap((name) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(name))
        .map((d) => `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    );
    expect(errors).to.deep.equal([]);
  });
});

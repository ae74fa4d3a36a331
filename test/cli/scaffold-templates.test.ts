/**
 * What `baton new` writes compiles under the repository's strict settings: the tool and its test,
 * laid out as `baton new` lays them out in this repository, checked by the compiler in process
 * (the files exist only in memory). A change to the authoring types that breaks the scaffold
 * fails here, before an author meets it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { testSource, toolSource } from '../../server/cli/scaffold-templates.js';
import { addTypeCheckFiles, repositoryOptions, typeErrors } from '../helpers/type-check.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('scaffold templates', () => {
  const toolPath = join(ROOT, 'machines', 'tools', 'scaffold-check.ts');
  const testPath = join(ROOT, 'test', 'machines', 'tools', 'scaffold-check.test.ts');
  addTypeCheckFiles({
    [toolPath]: toolSource('scaffold-check', { authoring: '../../server/engine/index.js', testing: '', tool: '' }),
    [testPath]: testSource('scaffold-check', {
      authoring: '',
      testing: '../../../server/testing/index.js',
      tool: '../../../machines/tools/scaffold-check',
    }),
  });

  it('writes a tool and a test that compile with strict TypeScript', function () {
    this.timeout(180_000); // a type check of the authoring API, the test kit and XState's types
    expect(repositoryOptions().strict).to.equal(true);
    const errors = [toolPath, testPath].flatMap((file) => typeErrors(file).map((e) => `${file}: ${e.text}`));
    expect(errors).to.deep.equal([]);
  });
});

/**
 * The diagram editor under `baton dev`, for real: a project made of the scaffold's tool, edited
 * through `/dev/editor` the way the page does it. An edit lands in the tool's own file and the
 * reloaded tool (its docs page's diagram) shows it; an edit that fails the start-up checks, a
 * stale hash, and every red-team request (wrong Origin, wrong Host, no token, a path in the body)
 * are refused with the file left byte for byte as it was; undo puts the text back. `baton serve`
 * (createServer) has no such route.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { expect } from 'chai';
import { createServer } from '../../../server/index.js';
import { respondWith, defineTool, silentLogger } from '../../../server/engine/index.js';
import { testKeyRing } from '../../helpers/test-server.js';
import { startDevProject, type DevProject } from '../../helpers/dev-project.js';

interface Answer {
  status: number;
  body: any;
}

/** An HTTP request with exactly the headers given (Host and Origin included). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: a page
          }
          resolve({ status: res.statusCode!, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the diagram editor under baton dev', function () {
  this.timeout(120_000);
  let project: DevProject;
  let file = '';
  let port = 0;
  let token = '';
  const api = '/dev/editor/tools/greet';
  const page = () => ({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` });
  const writeHeaders = () => ({ ...page(), 'baton-editor-token': token });
  const state = async () => (await send(port, 'GET', api, page())).body;

  before(async () => {
    project = await startDevProject();
    ({ file, port } = project);
    token = (await state()).token;
  });

  after(() => project?.stop());

  it('reads the tool from its own file: states, transitions, questions and the hash', async () => {
    const got = await state();
    expect(got).to.include({ tool: 'greet', file: 'greet.ts', kind: 'ts' });
    expect(got.hash).to.match(/^[0-9a-f]{64}$/);
    expect(got.outline.states.map((s: { id: string }) => s.id)).to.deep.equal(['', 'askName', 'done', 'declined']);
    expect(got.outline.states[1]).to.include({ question: 'name' });
    expect(token).to.have.length.greaterThan(30);
  });

  it('writes an edit into the file, and the reloaded tool shows it', async () => {
    const before = await state();
    const answer = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
      hash: before.hash,
      edit: {
        op: 'add-question',
        parent: [],
        name: 'askMood',
        question: {
          key: 'mood',
          kind: 'form',
          message: 'How are you?',
          fields: [{ name: 'mood', type: 'enum', required: true, title: 'Mood', options: ['good', 'bad'] }],
        },
        targets: { accept: ['done'], decline: ['declined'], cancel: ['declined'] },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const text = readFileSync(file, 'utf8');
    expect(text).to.include("meta: { 'baton.input': { key: 'mood' } },");
    expect(text).to.include("    mood: {\n      kind: 'form',");
    // A comment of the scaffold is still there, word for word.
    expect(text).to.include('// The tool result is the output of the final state the flow ends in.');
    expect(answer.body.hash).to.not.equal(before.hash);
    const docs = await send(port, 'GET', '/docs/tools/greet', page());
    expect(docs.body).to.match(/askMood/);
  });

  it('refuses an edit that fails the start-up checks with their message, leaving the file as it was', async () => {
    const before = readFileSync(file);
    const { hash } = await state();
    const answer = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
      hash,
      edit: { op: 'delete-state', path: ['askName'] },
    });
    expect(answer.status).to.equal(422);
    expect(answer.body.error.reason).to.equal('checks');
    expect(answer.body.error.message).to.match(/askName/);
    expect(readFileSync(file).equals(before)).to.equal(true);
  });

  it("refuses an edit that loads but would not compile, with tsc's message, when the project has a tsconfig", async () => {
    const tsconfig = join(project.dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
        },
        include: ['*.ts'],
      }),
    );
    try {
      const before = readFileSync(file);
      const { hash } = await state();
      // An event the setup never declares: XState runs it, the typed createMachine refuses it.
      const answer = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
        hash,
        edit: { op: 'add-transition', from: ['askName'], trigger: { type: 'event', event: 'poke' }, to: ['done'] },
      });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(422);
      expect(answer.body.error.reason).to.equal('checks');
      expect(answer.body.error.message).to.match(/^The edit would not compile:\ngreet\.ts:\d+:\d+ - /);
      expect(answer.body.error.message).to.include('poke');
      expect(readFileSync(file).equals(before)).to.equal(true);
      // An edit that compiles is not held back by the check.
      const fine = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
        hash,
        edit: { op: 'add-state', parent: [], name: 'typeChecked' },
      });
      expect(fine.status, JSON.stringify(fine.body)).to.equal(200);
      await send(port, 'POST', `${api}/undo`, writeHeaders(), { hash: fine.body.hash });
    } finally {
      rmSync(tsconfig);
    }
  });

  it('refuses an invoked step naming an actor the setup lacks, with the start-up check saying so', async () => {
    const before = readFileSync(file);
    const { hash, actors } = await state();
    // The scaffold's setup implements no actor: the page offers none, and a name it makes up fails.
    expect(actors).to.deep.equal([]);
    const answer = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
      hash,
      edit: { op: 'add-invoke', parent: [], name: 'lookUp', src: 'lookUpName', targets: { done: ['done'] } },
    });
    expect(answer.status).to.equal(422);
    expect(answer.body.error.reason).to.equal('checks');
    expect(answer.body.error.message).to.match(/lookUpName/);
    expect(readFileSync(file).equals(before)).to.equal(true);
  });

  it('refuses a stale hash: the page reloads instead of overwriting', async () => {
    const before = readFileSync(file);
    const answer = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
      hash: '0'.repeat(64),
      edit: { op: 'add-state', parent: [], name: 'late' },
    });
    expect(answer.status).to.equal(409);
    expect(answer.body.error.reason).to.equal('stale');
    expect(readFileSync(file).equals(before)).to.equal(true);
  });

  it('undoes the last edit', async () => {
    const { hash, undo } = await state();
    expect(undo).to.equal(1);
    const answer = await send(port, 'POST', `${api}/undo`, writeHeaders(), { hash });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(readFileSync(file, 'utf8')).to.equal(project.original);
    expect(answer.body.undo).to.equal(0);
    // The candidates checked beside the file never reached the dev loop's watcher.
    expect(project.stderr()).to.include('"event":"reloaded"').and.not.include('baton-edit-');
  });

  it('refuses an invoked step whose actor the page would run for real, saying how to stand it in', async () => {
    // The author writes an actor into the setup, as code; the page then offers it.
    const withActor = project.original
      .replace("import { assign } from 'xstate';", "import { assign, fromPromise } from 'xstate';")
      .replace('  questions: {\n', "  actors: { lookUpName: fromPromise(async () => 'Ada') },\n  questions: {\n");
    expect(withActor).to.include('lookUpName');
    writeFileSync(file, withActor);
    try {
      const deadline = Date.now() + 30_000;
      let got = await state();
      while (!got.actors?.includes('lookUpName') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        got = await state();
      }
      expect(got.actors).to.deep.equal(['lookUpName']);
      const answer = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
        hash: got.hash,
        edit: { op: 'add-invoke', parent: [], name: 'lookUp', src: 'lookUpName', targets: { done: ['done'] } },
      });
      expect(answer.status).to.equal(422);
      expect(answer.body.error.reason).to.equal('checks');
      expect(answer.body.error.message)
        .to.match(/lookUpName/)
        .and.match(/safeActors/);
      expect(readFileSync(file, 'utf8')).to.equal(withActor);
    } finally {
      writeFileSync(file, project.original);
    }
  });

  describe('red team: nothing is written', () => {
    let before: Buffer;
    let hash = '';
    const edit = () => ({ hash, edit: { op: 'add-state', parent: [], name: 'evil' } });
    beforeEach(async () => {
      before = readFileSync(file);
      hash = (await state()).hash;
    });
    afterEach(() => expect(readFileSync(file).equals(before)).to.equal(true));

    it('refuses another Origin', async () => {
      const answer = await send(
        port,
        'POST',
        `${api}/edit`,
        { ...writeHeaders(), origin: 'http://evil.example' },
        edit(),
      );
      expect(answer.status).to.equal(403);
    });
    it('refuses a write without an Origin', async () => {
      const { origin: _origin, ...headers } = writeHeaders();
      expect((await send(port, 'POST', `${api}/edit`, headers, edit())).status).to.equal(403);
    });
    it('refuses another Host (DNS rebinding), reads included', async () => {
      const headers = { ...writeHeaders(), host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
      expect((await send(port, 'POST', `${api}/edit`, headers, edit())).status).to.equal(403);
      expect((await send(port, 'GET', api, { host: `evil.example:${port}` })).status).to.equal(403);
    });
    it('refuses a write without the token, or with a wrong one', async () => {
      const { 'baton-editor-token': _token, ...headers } = writeHeaders();
      expect((await send(port, 'POST', `${api}/edit`, headers, edit())).status).to.equal(403);
      const wrong = { ...headers, 'baton-editor-token': 'x'.repeat(token.length) };
      expect((await send(port, 'POST', `${api}/edit`, wrong, edit())).status).to.equal(403);
    });
    it('refuses a path in the body, wherever it is put', async () => {
      const outside = await send(port, 'POST', `${api}/edit`, writeHeaders(), { ...edit(), file: '/etc/passwd' });
      expect(outside.status).to.equal(400);
      const inside = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
        hash,
        edit: { op: 'add-state', parent: [], name: 'x', path: '../../package.json' },
      });
      expect(inside.status).to.equal(400);
      const traversal = await send(port, 'POST', `${api}/edit`, writeHeaders(), {
        hash,
        edit: { op: 'rename-state', path: ['..', 'etc'], name: 'x' },
      });
      expect(traversal.status).to.equal(400);
    });
    it('refuses a tool name that is a path', async () => {
      const answer = await send(port, 'POST', `/dev/editor/tools/..%2F..%2Fpackage.json/edit`, writeHeaders(), edit());
      expect(answer.status).to.equal(404);
    });
  });
});

describe('baton serve (createServer) and the diagram editor', () => {
  it('has no editor route and no editor on its tool pages', async () => {
    const tool = defineTool({
      name: 'greet',
      description: 'Greets.',
      inputSchema: { type: 'object' },
      machine: respondWith('hi', () => 'hi'),
    });
    const baton = createServer({ tools: [tool], keyRing: testKeyRing(), logger: silentLogger });
    const { server } = await baton.listen(0, '127.0.0.1');
    try {
      const port = (server.address() as { port: number }).port;
      const headers = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
      expect((await send(port, 'GET', '/dev/editor/tools/greet', headers)).status).to.equal(404);
      expect(
        (await send(port, 'POST', '/dev/editor/tools/greet/edit', headers, { hash: 'x', edit: {} })).status,
      ).to.equal(404);
      const docs = await send(port, 'GET', '/docs/tools/greet', headers);
      expect(docs.status).to.equal(200);
      expect(docs.body).to.not.include('id="editor"');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await baton.close();
    }
  });
});

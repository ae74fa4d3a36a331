/**
 * XState's editor tooling reads every tool whole (issue 39): Stately's parser,
 * @xstate/machine-extractor, run on each tool's source recovers every state node of the machine
 * Baton runs, every transition with its targets and guard, every invoked actor, every question
 * (its `baton.input` tag and the key its meta names) and an `initial` that names a state it found.
 * Checked for every tool module in machines/ (examples and conformance), `baton new`'s tool, and
 * the machines in the docs' TypeScript blocks. A builder call, a spread or a variable where a
 * state's object literal should be makes a state vanish, and this fails naming it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import type { AnyStateMachine } from 'xstate';
import { collectFeedbackMachine } from '../../machines/examples/collect-feedback.js';
import { createConnectPaymentsMachine } from '../../machines/examples/connect-payments.js';
import { provisionMachine } from '../../machines/examples/provision-database.js';
import { releaseMachine } from '../../machines/examples/release.js';
import { releaseV1Machine } from '../../machines/examples/release.v1.js';
import { shipReleaseMachine } from '../../machines/examples/ship-release.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { toolSource } from '../../server/cli/scaffold-templates.js';
import type { ToolDefinition } from '../../server/engine/index.js';
import {
  parsedMachine,
  parseMachines,
  readMachine,
  recoveredStates,
  writtenStates,
  type ParsedMachine,
} from './statechart-reading.js';
import { REPO, tempFolder } from './temp-copies.js';

const source = (path: string) => readFileSync(join(REPO, path), 'utf8');

function expectReadWhole(machine: AnyStateMachine, parsed: ParsedMachine | undefined) {
  const reading = readMachine(machine, parsed);
  expect(reading.gaps, 'what the parser missed').to.deep.equal([]);
  expect(reading.recovered, 'states recovered').to.equal(reading.states);
  expect(reading.questionsRecovered, 'questions recovered').to.equal(reading.questions);
  return reading;
}

describe('XState editor tooling reads every tool whole (@xstate/machine-extractor)', () => {
  describe('the examples and the scaffold: states recovered = states in the machine, questions among them', () => {
    const examples: Array<[string, AnyStateMachine, string, 'ts' | 'json', number]> = [
      ['release', releaseMachine, 'machines/examples/release.ts', 'ts', 3],
      // Its earlier version, kept beside it (docs/deploy.md): still run, so still read whole.
      ['release v1', releaseV1Machine, 'machines/examples/release.v1.ts', 'ts', 2],
      ['provision-database', provisionMachine, 'machines/examples/provision-database.ts', 'ts', 3],
      ['ship-release', shipReleaseMachine, 'machines/examples/ship-release.ts', 'ts', 1],
      [
        'connect-payments',
        createConnectPaymentsMachine({ vault: createMemoryVault(), pageUrl: (ref) => `http://127.0.0.1/${ref}` }),
        'machines/examples/connect-payments.ts',
        'ts',
        1,
      ],
      // A drawn tool: the parser reads its JSON as the Stately editor imports it.
      ['collect-feedback', collectFeedbackMachine, 'machines/examples/collect-feedback.machine.json', 'json', 2],
    ];
    for (const [name, machine, file, kind, questions] of examples) {
      it(`${name}: every state, transition, guard, invoke and question (${file})`, () => {
        const reading = expectReadWhole(machine, parsedMachine(source(file), machine.id, kind));
        expect(reading.questions).to.equal(questions);
      });
    }

    it("baton new's tool: every state, transition and its question", async () => {
      const folder = tempFolder();
      try {
        const text = toolSource('greet-visitor', {
          authoring: `${REPO}server/engine/index.js`,
          testing: '',
          tool: '',
        });
        folder.write('greet-visitor.ts', text);
        const { greetVisitorTool } = await folder.load<{ greetVisitorTool: ToolDefinition }>('greet-visitor.ts');
        const reading = expectReadWhole(greetVisitorTool.machine, parsedMachine(text, greetVisitorTool.machine.id));
        expect(reading.questions).to.equal(1);
      } finally {
        folder.remove();
      }
    });
  });

  describe('every tool module in machines/ (examples and conformance)', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$|\.machine\.json$/.test(entry.name)) files.push(path);
      }
    };
    walk(join(REPO, 'machines'));
    const parsed = files.flatMap((file) =>
      parseMachines(readFileSync(file, 'utf8'), file.endsWith('.json') ? 'json' : 'ts').map((machine) => ({
        file: relative(REPO, file),
        machine,
      })),
    );
    const fixtures = conformanceFixtures();
    const served = [
      ...exampleTools({ publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() }),
      ...fixtures.tools,
      ...fixtures.prompts,
      ...fixtures.resources,
    ] as Array<{ machine: AnyStateMachine; name?: string; uri?: string; uriTemplate?: string }>;

    for (const primitive of served) {
      const { machine } = primitive;
      const label = primitive.name ?? primitive.uri ?? primitive.uriTemplate ?? machine.id;
      // `respondWith` (instant-machine.ts) builds a one-state machine for a tool with no flow:
      // its source holds no machine to read, and Baton draws it from the running machine.
      const instant = Object.keys(machine.root.states).join() === 'respond';
      it(`${label}: ${instant ? 'answers at once (respondWith), no machine in its source' : 'read whole from its source'}`, () => {
        // A kept earlier version (`<tool>.v1.ts`) has the same id: it is read above, beside its tool.
        const found = parsed.filter(
          (p) => p.machine.machineCallResult.definition?.id?.value === machine.id && !/\.v\d+\.ts$/.test(p.file),
        );
        if (instant) {
          expect(found, 'a respondWith tool has no createMachine of its own').to.deep.equal([]);
          return;
        }
        expect(
          found.map((p) => p.file),
          `the createMachine call with id "${machine.id}"`,
        ).to.have.length(1);
        expectReadWhole(machine, found[0]!.machine);
      });
    }
  });

  describe("the docs' TypeScript blocks that define machines", () => {
    const docs = [
      'README.md',
      ...readdirSync(join(REPO, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const withMachines = docs.filter((doc) => /```ts[^\n]*\n[^`]*createMachine\(/.test(source(doc)));

    it('finds the machines of the README and the authoring guide', () => {
      expect(withMachines).to.include.members(['README.md', 'docs/authoring.md']);
    });

    for (const doc of withMachines) {
      const blocks = [...source(doc).matchAll(/```ts[^\n]*\n([\s\S]*?)```/g)]
        .map((match) => match[1]!)
        .filter((block) => block.includes('createMachine('));
      it(`${doc}: every state written is recovered, and every initial names one (${blocks.length} blocks)`, () => {
        for (const block of blocks) {
          const written = writtenStates(block);
          const recovered = recoveredStates(block);
          expect(recovered.length, block.slice(0, 120)).to.equal(written.length);
          written.forEach((states, i) => {
            expect([...recovered[i]!.states].sort(), block.slice(0, 120)).to.deep.equal([...states].sort());
            expect(recovered[i]!.badInitials, block.slice(0, 120)).to.deep.equal([]);
          });
        }
      });
    }
  });
});

import { expect } from 'chai';
import { and, createMachine, fromPromise, not, or, setup, stateIn } from 'xstate';
import { STATE_DIAGRAM_FRONTMATTER, toStateDiagram } from '../../server/docs-site/index.js';
import { askForm, askRoots, askSampling, askUrl } from '../../server/engine/index.js';
import { releaseMachine } from '../../machines/examples/release.js';
import { provisionMachine } from '../../machines/examples/provision-database.js';

const lines = (text: string) => text.split('\n').map((line) => line.trim());

/** The lines between `state "<name>" as <id> {` and its closing brace. */
function block(text: string, id: string): string[] {
  const all = text.split('\n');
  const start = all.findIndex((line) => line.trim().endsWith(`as ${id} {`));
  expect(start, `block ${id}`).to.be.at.least(0);
  const indent = all[start]!.length - all[start]!.trimStart().length;
  const end = all.findIndex((line, i) => i > start && line === `${' '.repeat(indent)}}`);
  return all.slice(start + 1, end).map((line) => line.trim());
}

const form = (key: string, onAccept: string, onDecline: string, extra: Record<string, unknown> = {}) =>
  askForm({
    key,
    message: `Question ${key}?`,
    schema: { type: 'object', properties: { [key]: { type: 'string', enum: ['x', 'y'] } }, required: [key] },
    onAccept,
    onDecline,
    ...extra,
  });

describe('toStateDiagram', () => {
  describe('initial and final states', () => {
    const text = toStateDiagram(
      createMachine({ id: 'm', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { type: 'final' } } }),
    );

    it('starts with stateDiagram-v2 (after its frontmatter), enters the initial state and leaves from final ones', () => {
      expect(text.startsWith(`${STATE_DIAGRAM_FRONTMATTER.join('\n')}\nstateDiagram-v2\n`)).to.equal(true);
      expect(lines(text)).to.include.members([
        'state "a" as s_a',
        'state "b" as s_b',
        '[*] --> s_a',
        's_a --> s_b : GO',
        's_b --> [*]',
      ]);
    });

    it('draws a machine without states as its one state', () => {
      expect(lines(toStateDiagram(createMachine({ id: 'empty' })))).to.include.members([
        'state "empty" as s_root',
        '[*] --> s_root',
      ]);
    });
  });

  describe('nested (composite) states', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'outer',
      states: {
        outer: {
          initial: 'one',
          on: { RESET: '.one', LEAVE: 'done' },
          states: { one: { on: { NEXT: 'two' } }, two: { on: { OUT: '#m.done' } } },
        },
        done: { type: 'final' },
      },
    });
    const text = toStateDiagram(machine);

    it('draws children inside their parent with its own initial arrow and inner edges', () => {
      expect(block(text, 's_outer')).to.include.members([
        'state "one" as s_outer_one',
        'state "two" as s_outer_two',
        '[*] --> s_outer_one',
        's_outer_one --> s_outer_two : NEXT',
      ]);
    });

    it('declares an edge that leaves the composite in the enclosing block', () => {
      expect(block(text, 's_outer')).not.to.include('s_outer_two --> s_done : OUT');
      expect(lines(text)).to.include.members(['s_outer_two --> s_done : OUT', 's_outer --> s_done : LEAVE']);
    });

    it('starts a transition from a composite into its own inside at a dashed "any state" node', () => {
      expect(block(text, 's_outer')).to.include.members([
        'state "any state" as any_outer',
        'any_outer --> s_outer_one : RESET',
      ]);
      expect(text).to.match(/classDef anyState .*stroke-dasharray/);
      expect(lines(text)).to.include('class any_outer anyState');
    });
  });

  describe('parallel regions', () => {
    const text = toStateDiagram(provisionMachine);

    it('splits the regions of a parallel state with --', () => {
      const collect = block(text, 's_collect');
      const divider = collect.indexOf('--');
      expect(divider).to.be.greaterThan(0);
      expect(collect.slice(0, divider)).to.include('state "size" as s_collect_size {');
      expect(collect.slice(divider + 1)).to.include('state "region" as s_collect_region {');
      expect(lines(text)).to.include('s_collect --> s_checking : done');
    });

    it('draws an edge into both regions when a transition targets two states', () => {
      expect(lines(text)).to.include.members([
        's_checking --> s_collect_size_chosen : done: checkQuota [else]',
        's_checking --> s_collect_region_asking : done: checkQuota [else]',
      ]);
    });

    it('gives a parallel root a box of its own', () => {
      const root = toStateDiagram(
        createMachine({
          id: 'p',
          type: 'parallel',
          states: { l: { initial: 'x', states: { x: {} } }, r: { initial: 'y', states: { y: {} } } },
        }),
      );
      expect(block(root, 's_root')).to.include('--');
      expect(lines(root)).to.include('[*] --> s_root');
    });
  });

  describe('history states', () => {
    const text = toStateDiagram(
      createMachine({
        id: 'h',
        initial: 'work',
        states: {
          work: {
            initial: 'a',
            states: {
              a: { on: { N: 'b' } },
              b: {},
              shallow: { type: 'history' },
              deep: { type: 'history', history: 'deep', target: 'b' },
            },
            on: { PAUSE: 'paused' },
          },
          paused: { on: { RESUME: 'work.shallow', RESUME_DEEP: 'work.deep' } },
        },
      }),
    );

    it('shows shallow history as H and deep history as H*', () => {
      expect(lines(text)).to.include.members(['state "H" as s_work_shallow', 'state "H*" as s_work_deep']);
      expect(lines(text)).to.include('class s_work_shallow,s_work_deep history');
    });

    it('draws the default of each history state and the transitions into it', () => {
      expect(lines(text)).to.include.members([
        's_work_shallow --> s_work_a : default',
        's_work_deep --> s_work_b : default',
        's_paused --> s_work_shallow : RESUME',
        's_paused --> s_work_deep : RESUME_DEEP',
      ]);
    });
  });

  describe('eventless and delayed transitions', () => {
    const text = toStateDiagram(
      setup({ guards: { ready: () => true }, delays: { patience: 1000 } }).createMachine({
        id: 't',
        initial: 'wait',
        states: {
          wait: { after: { 50: 'check', patience: 'gaveUp' } },
          check: { always: [{ guard: 'ready', target: 'done' }, { target: 'wait' }] },
          gaveUp: { type: 'final' },
          done: { type: 'final' },
        },
      }),
    );

    it('labels delays in milliseconds, or by name', () => {
      expect(lines(text)).to.include.members([
        's_wait --> s_check : after 50 ms',
        's_wait --> s_gaveUp : after patience',
      ]);
    });

    it('labels eventless transitions always, with their guard and else', () => {
      expect(lines(text)).to.include.members([
        's_check --> s_done : always [ready]',
        's_check --> s_wait : always [else]',
      ]);
    });
  });

  describe('guards', () => {
    const text = toStateDiagram(
      setup({ guards: { a: () => true, b: () => true } }).createMachine({
        id: 'g',
        initial: 'x',
        states: {
          x: {
            on: {
              NAMED: { target: 'y', guard: 'a' },
              COMBINED: { target: 'y', guard: and(['a', not('b')]) },
              EITHER: { target: 'y', guard: or(['a', stateIn('x')]) },
              INLINE: { target: 'y', guard: () => true },
              PICK: [{ target: 'y', guard: { type: 'b' } }, { target: 'z' }],
            },
          },
          y: {},
          z: {},
        },
      }),
    );

    it('shows named guards by name and spells out not, and, or and stateIn', () => {
      expect(lines(text)).to.include.members([
        's_x --> s_y : NAMED [a]',
        's_x --> s_y : COMBINED [a && !b]',
        's_x --> s_y : EITHER [a || (in x)]',
        's_x --> s_y : PICK [b]',
        's_x --> s_z : PICK [else]',
      ]);
    });

    it('marks an inline guard, which has no name to show', () => {
      expect(lines(text)).to.include('s_x --> s_y : INLINE [inline guard]');
    });
  });

  describe('invoked actors', () => {
    const text = toStateDiagram(releaseMachine);

    it('lists the actor on its state, styles it, and labels its done and error edges', () => {
      expect(lines(text)).to.include.members([
        's_deploying : invoke: deploy',
        's_deploying --> s_released : done: deploy',
        's_deploying --> s_failed : error: deploy',
        'class s_deploying invoking',
      ]);
    });

    it('names inline actors, and puts what a composite state invokes in a note', () => {
      const inline = toStateDiagram(
        setup({ actors: { poll: fromPromise(async () => 1) } }).createMachine({
          id: 'i',
          initial: 'busy',
          states: {
            busy: {
              initial: 'a',
              invoke: { src: 'poll' },
              states: { a: { invoke: { src: fromPromise(async () => 2), onDone: 'b' } }, b: {} },
            },
          },
        }),
      );
      expect(lines(inline)).to.include.members([
        's_busy_a : invoke: inline actor',
        's_busy_a --> s_busy_b : done: inline actor',
        'note right of s_busy : invoke#58; poll',
      ]);
    });
  });

  describe('input states', () => {
    const text = toStateDiagram(releaseMachine);

    it('styles input states with their own class', () => {
      expect(text).to.match(/classDef input fill:[^\n]+stroke-width:2px/);
      expect(lines(text)).to.include('class s_pickWindow,s_changelog,s_confirm input');
    });

    it('labels them with the kind, key and fields they ask, and marks single-use ones', () => {
      expect(lines(text)).to.include.members([
        's_pickWindow : form «window»',
        's_pickWindow : window: now | tonight | weekend',
        's_confirm : confirm: boolean',
        's_confirm : single use',
      ]);
      expect(lines(text)).not.to.include('s_pickWindow : single use');
    });

    it('shows a fixed message, and the kinds URL, sampling and roots', () => {
      const kinds = toStateDiagram(
        createMachine({
          id: 'k',
          type: 'parallel',
          states: {
            f: { initial: 'q', states: { q: form('name', 'r', 'r'), r: {} } },
            u: {
              initial: 'q',
              states: {
                q: askUrl({ key: 'page', message: 'Open it', url: 'https://x', onAccept: 'r', onDecline: 'r' }),
                r: {},
              },
            },
            s: {
              initial: 'q',
              states: {
                q: askSampling({
                  key: 'model',
                  request: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }] },
                  onResult: 'r',
                }),
                r: {},
              },
            },
            o: { initial: 'q', states: { q: askRoots({ key: 'where', onResult: 'r' }), r: {} } },
          },
        }),
      );
      expect(lines(kinds)).to.include.members([
        's_f_q : “Question name?”',
        's_u_q : URL «page»',
        's_u_q : “Open it”',
        's_s_q : sampling «model»',
        's_s_q : “Hi?”',
        's_o_q : roots «where»',
        's_s_q --> s_s_r : result',
      ]);
    });

    it('labels answer edges accept, decline and cancel, merging those that go to the same place', () => {
      expect(lines(text)).to.include.members([
        's_changelog --> s_confirm : accept',
        's_pickWindow --> s_cancelled : decline / cancel',
        's_confirm --> s_deploying : accept [confirmed]',
      ]);
      const split = toStateDiagram(
        createMachine({
          id: 'c',
          initial: 'q',
          states: { q: form('k', 'a', 'b', { onCancel: 'c' }), a: {}, b: {}, c: {} },
        }),
      );
      expect(lines(split)).to.include.members([
        's_q --> s_a : accept',
        's_q --> s_b : decline',
        's_q --> s_c : cancel',
      ]);
    });

    it('names the question on an answer edge handled by another state', () => {
      const parentHandled = toStateDiagram(
        createMachine({
          id: 'p',
          initial: 'outer',
          states: {
            outer: {
              initial: 'q',
              on: { 'answer.k.cancel': 'gone' },
              states: { q: form('k', 'done', 'done'), done: {} },
            },
            gone: {},
          },
        }),
      );
      expect(lines(parentHandled)).to.include('s_outer --> s_gone : k cancel');
    });
  });

  describe('other transitions', () => {
    it('draws machine-level handlers from an "any state" node, and targetless ones as loops', () => {
      const text = toStateDiagram(
        createMachine({
          id: 'o',
          initial: 'a',
          on: { RESET: '.a' },
          states: { a: { on: { PING: { actions: () => {} }, '*': 'b' } }, b: {} },
        }),
      );
      expect(lines(text)).to.include.members([
        'state "any state" as any_state',
        'any_state --> s_a : RESET',
        's_a --> s_a : PING',
        's_a --> s_b : *',
      ]);
    });
  });

  describe('escaping', () => {
    const name = 'weird; "name" {x} <b> %% #1: end';
    const text = toStateDiagram(
      createMachine({
        id: 'e',
        initial: name,
        states: { [name]: { on: { 'GO "now"': 'a-b' } }, 'a-b': { on: { X: 'a_b' } }, a_b: {} },
      }),
    );

    it('gives every state a word-character id and entity-encodes its name', () => {
      const declaration = lines(text).find((line) => line.startsWith('state "weird'))!;
      expect(declaration).to.match(/^state "[^"]*" as s_[A-Za-z0-9_]+$/);
      expect(declaration).to.include('#59;').and.include('#quot;').and.include('#123;').and.include('#37;#37;');
      const label = /^state "([^"]*)"/.exec(declaration)![1]!;
      expect(label.replace(/#\w+;/g, '')).not.to.match(/[;<>{}%#"]/);
    });

    it('keeps states whose names sanitize alike apart', () => {
      expect(lines(text)).to.include.members([
        'state "a-b" as s_a_b',
        'state "a_b" as s_a_b_2',
        's_a_b --> s_a_b_2 : X',
      ]);
    });
  });

  describe('determinism', () => {
    it('gives the same text for the same machine, and for two identical machines built apart', () => {
      expect(toStateDiagram(provisionMachine)).to.equal(toStateDiagram(provisionMachine));
      const build = () =>
        createMachine({ id: 'd', initial: 'a', states: { a: { on: { GO: 'b', BACK: 'a' } }, b: { type: 'final' } } });
      expect(toStateDiagram(build())).to.equal(toStateDiagram(build()));
    });
  });
});

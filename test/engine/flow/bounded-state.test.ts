import { expect } from 'chai';
import { assign, setup } from 'xstate';
import {
  DEFAULT_MAX_STATE_LENGTH,
  formContent,
  openState,
  sealState,
  type StateClaims,
} from '../../../server/engine/index.js';
import { DEFAULT_ANSWER_MAX_LENGTH } from '../../../server/engine/round/answers.js';
import { countingBytes, testKeyRing } from '../fixtures/keys.js';
import { expectAsked, expectComplete, expectFailed, messageOf } from '../fixtures/flow.js';
import { askText, roundsOf, text } from '../xstate/rounds.js';

const claims: StateClaims = {
  principal: 'p',
  target: 'tools/call t',
  args: 'a',
  version: 'v',
  issuedAt: 0,
  expiresAt: 10,
  id: 'id',
  round: 1,
  asked: ['x'],
  singleUse: false,
};

/** Text that deflate cannot shrink much (a fixed pseudo-random sequence of letters). */
function varied(length: number): string {
  let x = 12345;
  let out = '';
  for (let i = 0; i < length; i += 1) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}

/** Keeps the first answer's text in context, then asks again. */
function keeping(schemaMaxLength?: number) {
  const property = schemaMaxLength === undefined ? { type: 'string' } : { type: 'string', maxLength: schemaMaxLength };
  return setup({}).createMachine({
    id: 'keeping',
    initial: 'first',
    context: { kept: '' },
    output: ({ context }) => ({ length: context.kept.length }),
    states: {
      first: {
        ...askText('first', {
          target: 'second',
          actions: assign({ kept: ({ event }) => formContent<{ text: string }>(event).text }),
        }),
        meta: {
          'baton.input': {
            kind: 'form',
            key: 'first',
            message: 'Give first',
            schema: { type: 'object', properties: { text: property }, required: ['text'] },
          },
        },
      },
      second: askText('second', 'done'),
      done: { type: 'final' },
      declined: { type: 'final' },
    },
  });
}

describe('Bounded state', () => {
  describe('seal and open agree', () => {
    it('ends the flow with a tool error instead of issuing a state it could not open', async () => {
      // 120,000 × "item-1" deflates to a few KB but is 1 MB of text.
      const machine = setup({}).createMachine({
        id: 'big',
        initial: 'first',
        context: { items: [] as string[] },
        states: {
          first: askText('first', {
            target: 'second',
            actions: assign({ items: () => Array.from({ length: 120_000 }, () => 'item-1') }),
          }),
          second: askText('second', 'done'),
          done: { type: 'final' },
          declined: { type: 'final' },
        },
      });
      const driver = roundsOf(machine);
      const first = await driver.ask();
      expect(expectFailed(await driver.answer(first, { first: text('go') }))).to.include('cannot pause');
    });

    it('does not open a small sealed state that inflates to 1 MB', () => {
      const ring = testKeyRing();
      // Sealed without a bound, as an older release or a forger holding the key would.
      const token = sealState(
        { claims, snapshot: { answer: 'x'.repeat(1_000_000) } },
        {
          keyRing: ring,
          randomBytes: countingBytes(),
        },
      );
      expect(token.length).to.be.below(2_000);
      expect(openState(token, ring, DEFAULT_MAX_STATE_LENGTH)).to.equal(undefined);
    });

    it('opens every state it seals, up to the largest it will issue', () => {
      const ring = testKeyRing();
      let issued = 0;
      for (const size of [10, 1_000, 10_000, 30_000, 60_000, 70_000]) {
        for (const snapshot of [
          { text: 'ab'.repeat(size / 2) },
          { list: Array.from({ length: size / 10 }, (_, i) => `n${i * 7919}`) },
        ]) {
          let token: string;
          try {
            token = sealState(
              { claims, snapshot },
              { keyRing: ring, randomBytes: countingBytes(), maxLength: DEFAULT_MAX_STATE_LENGTH },
            );
          } catch {
            continue;
          }
          issued += 1;
          expect(openState(token, ring, DEFAULT_MAX_STATE_LENGTH)?.snapshot).to.deep.equal(snapshot);
        }
      }
      expect(issued).to.be.greaterThan(4);
    });
  });

  describe('free-text answers', () => {
    it(`asks again when a text answer is longer than ${DEFAULT_ANSWER_MAX_LENGTH} characters and the schema sets no maxLength`, async () => {
      const driver = roundsOf(keeping());
      const first = await driver.ask();
      const again = expectAsked(await driver.answer(first, { first: text('x'.repeat(1_000_000)) }), ['first']);
      expect(messageOf(again.inputRequests.first)).to.match(/^Your last answer was not accepted/);
      const second = expectAsked(await driver.answer(again, { first: text('x'.repeat(DEFAULT_ANSWER_MAX_LENGTH)) }), [
        'second',
      ]);
      expect(expectComplete(await driver.answer(second, { second: text('ok') }))).to.deep.equal({
        length: DEFAULT_ANSWER_MAX_LENGTH,
      });
    });

    it('ends the flow with a tool error when an answer the schema allows would make a small state open to 1 MB', async () => {
      const driver = roundsOf(keeping(2_000_000));
      const first = await driver.ask();
      expect(expectFailed(await driver.answer(first, { first: text('x'.repeat(1_000_000)) }))).to.include(
        'cannot pause',
      );
    });

    it("keeps a longer answer when the schema's own maxLength allows it, within the state's size limit", async () => {
      const driver = roundsOf(keeping(20_000));
      const first = await driver.ask();
      const second = expectAsked(await driver.answer(first, { first: text(varied(10_000)) }), ['second']);
      expect(expectComplete(await driver.answer(second, { second: text('ok') }))).to.deep.equal({ length: 10_000 });
    });
  });
});

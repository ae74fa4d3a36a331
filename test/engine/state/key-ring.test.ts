import { expect } from 'chai';
import { ConfigurationError, KeyRing, generateKeyEntry, parseKeyRing } from '../../../server/engine/index.js';

const KEY_A = Buffer.alloc(32, 1).toString('base64');
const KEY_B = Buffer.alloc(32, 2).toString('base64');

function expectConfigurationError(run: () => unknown): ConfigurationError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  expect.fail('expected a ConfigurationError');
}

describe('parseKeyRing', () => {
  it('parses one kid:base64key entry into a ring whose current key is that key', () => {
    const ring = parseKeyRing(`a:${KEY_A}`);
    expect(ring.ids).to.deep.equal(['a']);
    expect(ring.current.id).to.equal('a');
    expect(Buffer.from(ring.current.secret).equals(Buffer.alloc(32, 1))).to.equal(true);
  });

  it('parses several entries, the first one sealing and every one opening', () => {
    const ring = parseKeyRing(`new:${KEY_B},old:${KEY_A}`);
    expect(ring.ids).to.deep.equal(['new', 'old']);
    expect(ring.current.id).to.equal('new');
    expect(Buffer.from(ring.find('old')!.secret).equals(Buffer.alloc(32, 1))).to.equal(true);
    expect(Buffer.from(ring.find('new')!.secret).equals(Buffer.alloc(32, 2))).to.equal(true);
  });

  it('ignores whitespace around entries and empty entries between commas', () => {
    const ring = parseKeyRing(`  a:${KEY_A} ,\n b:${KEY_B} ,, `);
    expect(ring.ids).to.deep.equal(['a', 'b']);
  });

  it('accepts url-safe base64 and unpadded keys', () => {
    const secret = Buffer.alloc(32, 0xfb);
    const urlSafe = secret.toString('base64url');
    expect(urlSafe).to.match(/[-_]/);
    const ring = parseKeyRing(`u:${urlSafe}`);
    expect(Buffer.from(ring.current.secret).equals(secret)).to.equal(true);
  });

  it('finds nothing for a kid that is not in the ring', () => {
    expect(parseKeyRing(`a:${KEY_A}`).find('b')).to.equal(undefined);
  });

  const bad: Array<[string, string]> = [
    ['an empty string', ''],
    ['only separators and whitespace', ' , ,'],
    ['an entry without a colon', KEY_A],
    ['an entry with an empty kid', `:${KEY_A}`],
    ['a key that is not base64', 'a:not*base64!'],
    ['an empty key', 'a:'],
    // Node's decoder would skip these characters and still yield 32 bytes.
    ['a key with a character outside base64 inside it', `a:${KEY_A.slice(0, 8)}!${KEY_A.slice(8)}`],
    ['a key with a space inside it', `a:${KEY_A.slice(0, 8)} ${KEY_A.slice(8)}`],
    ['a key of 16 bytes', `a:${Buffer.alloc(16, 1).toString('base64')}`],
    ['a key of 33 bytes', `a:${Buffer.alloc(33, 1).toString('base64')}`],
    ['a duplicate kid', `a:${KEY_A},a:${KEY_B}`],
    ['a kid with a dot (the token separator)', `a.b:${KEY_A}`],
    ['a kid with a space', `a b:${KEY_A}`],
    ['a kid longer than 32 characters', `${'k'.repeat(33)}:${KEY_A}`],
  ];
  for (const [what, spec] of bad) {
    it(`throws a ConfigurationError for ${what}`, () => {
      expectConfigurationError(() => parseKeyRing(spec));
    });
  }

  it('names the offending kid in the message for a duplicate or a wrong length', () => {
    expect(expectConfigurationError(() => parseKeyRing(`dup:${KEY_A},dup:${KEY_B}`)).message).to.include('dup');
    expect(
      expectConfigurationError(() => parseKeyRing(`short:${Buffer.alloc(8).toString('base64')}`)).message,
    ).to.include('short');
  });
});

describe('KeyRing', () => {
  it('refuses an empty list of keys', () => {
    expectConfigurationError(() => new KeyRing([]));
  });

  it('refuses a secret of the wrong length', () => {
    expectConfigurationError(() => new KeyRing([{ id: 'a', secret: new Uint8Array(31) }]));
  });
});

describe('generateKeyEntry', () => {
  it('produces an entry that parseKeyRing reads back with the given kid and a 32-byte key', () => {
    const ring = parseKeyRing(generateKeyEntry('fresh'));
    expect(ring.current.id).to.equal('fresh');
    expect(ring.current.secret).to.have.length(32);
  });

  it('produces a valid kid by default', () => {
    const ring = parseKeyRing(generateKeyEntry());
    expect(ring.current.id).to.match(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it('produces a different secret every time', () => {
    const a = parseKeyRing(generateKeyEntry('a')).current.secret;
    const b = parseKeyRing(generateKeyEntry('a')).current.secret;
    expect(Buffer.from(a).equals(Buffer.from(b))).to.equal(false);
  });

  it('produces entries that combine into a rotation ring', () => {
    const ring = parseKeyRing(`${generateKeyEntry('k2')},${generateKeyEntry('k1')}`);
    expect(ring.ids).to.deep.equal(['k2', 'k1']);
  });
});

/**
 * The bounds a well-signed token must still keep (server/identity/access-token-verifier.ts and
 * compact-jws.ts): `iat` not in the future beyond the leeway, a lifetime (`exp - iat`, or
 * `exp - now` without `iat`) of at most 24 h by default, and strict base64url in all three parts
 * of the compact JWS. Each is refused as an ordinary invalid token, never thrown on as a crash.
 */
import { expect } from 'chai';
import { AccessTokenVerifier, type AccessTokenOptions } from '../../server/identity/index.js';
import { silentLogger } from '../../server/engine/index.js';
import {
  startLocalKeyServer,
  type LocalKeyServer,
  reasonOf,
  TEST_AUDIENCE as AUDIENCE,
} from '../helpers/local-key-server.js';

const HOUR = 3600;

describe('access tokens: time and encoding bounds', function () {
  this.timeout(20_000);
  let issuer: LocalKeyServer;
  const now = () => Math.floor(Date.now() / 1000);

  const verify = (token: string, options: Partial<AccessTokenOptions> = {}) =>
    reasonOf(
      new AccessTokenVerifier({
        issuers: [issuer.issuer],
        audience: AUDIENCE,
        logger: silentLogger,
        ...options,
      }).verify(token),
    );

  before(async () => {
    issuer = await startLocalKeyServer(AUDIENCE);
  });
  after(() => issuer.close());

  describe('iat', () => {
    it('refuses an iat a year in the future', async () => {
      expect(await verify(await issuer.token({ iat: now() + 365 * 24 * HOUR, exp: now() + 300 }))).to.equal(
        'not_yet_valid',
      );
    });

    it('refuses an iat in the future beyond the leeway, accepts one within it', async () => {
      expect(await verify(await issuer.token({ iat: now() + 60 }))).to.equal('not_yet_valid');
      expect(await verify(await issuer.token({ iat: now() + 10 }))).to.equal('accepted');
      expect(await verify(await issuer.token({ iat: now() + 60 }), { leewaySeconds: 90 })).to.equal('accepted');
    });
  });

  describe('lifetime', () => {
    it('refuses an exp in year 9999', async () => {
      expect(await verify(await issuer.token({ exp: 253402300799 }))).to.equal('lifetime');
    });

    it('accepts exp - iat of 24 h, refuses a second more (the default)', async () => {
      const iat = now();
      expect(await verify(await issuer.token({ iat, exp: iat + 24 * HOUR }))).to.equal('accepted');
      expect(await verify(await issuer.token({ iat, exp: iat + 24 * HOUR + 1 }))).to.equal('lifetime');
    });

    it('measures from now when the token has no iat (a plain JWT)', async () => {
      const plain = (exp: number) => issuer.token({ iat: undefined, exp }, { typ: 'JWT' });
      expect(await verify(await plain(now() + 23 * HOUR))).to.equal('accepted');
      expect(await verify(await plain(now() + 25 * HOUR))).to.equal('lifetime');
    });

    it('takes another bound from maxTokenLifetimeSeconds', async () => {
      const iat = now();
      const token = await issuer.token({ iat, exp: iat + 2 * HOUR });
      expect(await verify(token, { maxTokenLifetimeSeconds: HOUR })).to.equal('lifetime');
      expect(await verify(token, { maxTokenLifetimeSeconds: 3 * HOUR })).to.equal('accepted');
    });
  });

  describe('strict base64url', () => {
    let good: string;
    before(async () => {
      good = await issuer.token();
      expect(await verify(good)).to.equal('accepted');
    });

    const variants: Array<[string, (token: string) => string]> = [
      ['"==" appended', (token) => `${token}==`],
      ['"=" padding after the header', (token) => token.replace('.', '=.')],
      ['"+" in the signature', (token) => `${token.slice(0, -2)}+${token.slice(-1)}`],
      ['"/" in the payload', (token) => token.replace('.', './')],
      ['a space inside', (token) => `${token.slice(0, 20)} ${token.slice(20)}`],
      ['a line break inside the signature', (token) => `${token.slice(0, -10)}\n${token.slice(-10)}`],
      // ES256 signatures are 64 bytes: 86 characters whose last one carries 4 unused bits. Setting
      // one of them decodes to the same bytes, so a lenient decoder accepts a second spelling.
      ['non-zero unused bits in the last character', (token) => `${token.slice(0, -1)}${flipUnusedBit(token.at(-1)!)}`],
      ['a fourth part', (token) => `${token}.AAAA`],
      ['an empty header', (token) => token.slice(token.indexOf('.'))],
    ];
    for (const [name, spoil] of variants) {
      it(`refuses a token with ${name} as malformed`, async () => {
        const spoiled = spoil(good);
        expect(spoiled).to.not.equal(good);
        expect(await verify(spoiled)).to.equal('malformed');
      });
    }
  });
});

/** The base64url character whose 6-bit value differs from `char`'s in its lowest bit. */
function flipUnusedBit(char: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return alphabet[alphabet.indexOf(char) ^ 1]!;
}

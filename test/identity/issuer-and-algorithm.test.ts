/**
 * The two checks a mutation audit found no test for: `iss` must equal a configured issuer exactly
 * (never a prefix: a longer string that starts with the issuer is another issuer), and only
 * asymmetric algorithms are accepted (never HMAC, never `none`), decided from the header before
 * any key is fetched. Each test fails with its bug in place (see the report of issue 38):
 * - compare `iss` by prefix, and the suffixed issuers below are accepted as principals;
 * - add `HS256` or `none` to ASYMMETRIC_ALGORITHMS, and the cold verifier fetches the issuer's
 *   metadata and keys for a token it must refuse from its header alone (and the reason changes).
 */
import { createPublicKey } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT, base64url } from 'jose';
import { ASYMMETRIC_ALGORITHMS, AccessTokenVerifier, type AccessTokenOptions } from '../../server/identity/index.js';
import { silentLogger } from '../../server/engine/index.js';
import {
  JWKS_PATH,
  METADATA_PATH,
  startLocalKeyServer,
  type LocalKeyServer,
  reasonOf,
  TEST_AUDIENCE as AUDIENCE,
} from '../helpers/local-key-server.js';

describe('the issuer and the algorithm', function () {
  this.timeout(20_000);
  let issuer: LocalKeyServer;
  const now = () => Math.floor(Date.now() / 1000);
  const verifier = (options: Partial<AccessTokenOptions> = {}) =>
    new AccessTokenVerifier({ issuers: [issuer.issuer], audience: AUDIENCE, logger: silentLogger, ...options });

  beforeEach(async () => {
    issuer = await startLocalKeyServer(AUDIENCE);
  });
  afterEach(() => issuer.close());

  describe('iss is compared exactly', () => {
    const lookalikes: Array<[string, (trusted: string) => string]> = [
      ['a suffix on the host', (trusted) => `${trusted}.evil.example`],
      ['a trailing slash', (trusted) => `${trusted}/`],
      ['a trailing path', (trusted) => `${trusted}/tenant2`],
      ['another character', (trusted) => `${trusted}0`],
      ['another case', (trusted) => trusted.toUpperCase()],
    ];
    for (const [name, lookalike] of lookalikes) {
      it(`refuses the trusted issuer with ${name}, signed with the trusted issuer's own key`, async () => {
        const target = verifier();
        expect(await reasonOf(target.verify(await issuer.token()))).to.equal('accepted');
        const token = await issuer.token({ iss: lookalike(issuer.issuer) });
        expect(await reasonOf(target.verify(token))).to.equal('issuer');
      });
    }

    it('refuses a lookalike issuer on a cold verifier without fetching anything', async () => {
      const token = await issuer.token({ iss: `${issuer.issuer}.evil.example` });
      expect(await reasonOf(verifier().verify(token))).to.equal('issuer');
      expect(issuer.counts.size).to.equal(0);
    });

    it('the principal names the configured issuer', async () => {
      const principal = await verifier().verify(await issuer.token());
      expect(principal.id).to.equal(`${issuer.issuer}|alice`);
    });
  });

  describe('only asymmetric algorithms', () => {
    const hmacToken = async (secret: Uint8Array, alg = 'HS256') =>
      new SignJWT({ iss: issuer.issuer, sub: 'alice', aud: AUDIENCE, exp: now() + 300, iat: now() })
        .setProtectedHeader({ alg, typ: 'at+jwt', kid: issuer.key.kid })
        .sign(secret);

    const publicPem = () =>
      String(
        createPublicKey({ key: issuer.key.publicJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' }),
      );

    const secrets: Array<[string, () => Uint8Array]> = [
      ['the public key as PEM', () => new TextEncoder().encode(publicPem())],
      ['the public JWK as JSON', () => new TextEncoder().encode(JSON.stringify(issuer.key.publicJwk))],
      ['a guessed secret', () => new TextEncoder().encode('secret')],
    ];

    for (const [name, secret] of secrets) {
      it(`refuses an HS256 token keyed with ${name}, from its header alone (no fetch)`, async () => {
        expect(await reasonOf(verifier().verify(await hmacToken(secret())))).to.equal('algorithm');
        expect(issuer.count(METADATA_PATH)).to.equal(0);
        expect(issuer.count(JWKS_PATH)).to.equal(0);
      });
    }

    it('refuses HS384 and HS512 the same way', async () => {
      for (const alg of ['HS384', 'HS512']) {
        const token = await hmacToken(new TextEncoder().encode(publicPem()), alg);
        expect(await reasonOf(verifier().verify(token))).to.equal('algorithm');
      }
      expect(issuer.counts.size).to.equal(0);
    });

    it('refuses an unsigned token (alg none), from its header alone', async () => {
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: issuer.key.kid }));
      const payload = base64url.encode(
        JSON.stringify({
          iss: issuer.issuer,
          sub: 'alice',
          aud: AUDIENCE,
          client_id: 'app',
          jti: 'j',
          iat: now(),
          exp: now() + 300,
        }),
      );
      for (const token of [`${header}.${payload}.`, `${header}.${payload}`]) {
        expect(await reasonOf(verifier().verify(token))).to.be.oneOf(['algorithm', 'malformed']);
      }
      expect(await reasonOf(verifier().verify(`${header}.${payload}.`))).to.equal('algorithm');
      expect(issuer.counts.size).to.equal(0);
    });

    it('refuses HS256 even when the issuer publishes a symmetric key under that kid', async () => {
      const shared = new TextEncoder().encode('a-shared-secret-of-32-bytes-long!');
      issuer.extraKeys.push({ kty: 'oct', kid: 'shared', k: base64url.encode(shared), alg: 'HS256', use: 'sig' });
      const token = await new SignJWT({ iss: issuer.issuer, sub: 'alice', aud: AUDIENCE, exp: now() + 300, iat: now() })
        .setProtectedHeader({ alg: 'HS256', kid: 'shared' })
        .sign(shared);
      expect(await reasonOf(verifier().verify(token))).to.equal('algorithm');
    });

    it('names no symmetric algorithm, nor none, in the allow-list, and refuses one in the settings', () => {
      for (const alg of ASYMMETRIC_ALGORITHMS) expect(alg).to.not.match(/^(HS|none)/i);
      for (const algorithms of [['HS256'], ['none'], ['RS256', 'HS512']]) {
        expect(() => verifier({ algorithms })).to.throw(TypeError);
      }
    });
  });
});

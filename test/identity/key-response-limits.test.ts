/**
 * What an issuer's answers may cost (server/identity/bounded-fetch.ts): metadata and JWKS bodies
 * are read up to a cap and no further (a body past it is a failed fetch, and the reader stops, so
 * a 200 MB key set never reaches memory), and a redirect is never followed.
 */
import { expect } from 'chai';
import { AccessTokenVerifier, type AccessTokenOptions } from '../../server/identity/index.js';
import { silentLogger } from '../../server/engine/index.js';
import {
  JWKS_PATH,
  METADATA_PATH,
  startLocalKeyServer,
  type LocalKeyServer,
  reasonOf,
  TEST_AUDIENCE as AUDIENCE,
} from '../helpers/local-key-server.js';

const MiB = 1024 * 1024;

describe('issuer responses are bounded', function () {
  this.timeout(30_000);
  let issuer: LocalKeyServer;
  let other: LocalKeyServer;

  const verifier = (options: Partial<AccessTokenOptions> = {}) =>
    new AccessTokenVerifier({ issuers: [issuer.issuer], audience: AUDIENCE, logger: silentLogger, ...options });

  beforeEach(async () => {
    issuer = await startLocalKeyServer(AUDIENCE);
    other = await startLocalKeyServer(AUDIENCE);
  });
  afterEach(async () => {
    await issuer.close();
    await other.close();
  });

  it('accepts a JWKS just under the 1 MiB default cap', async () => {
    issuer.jwks = { kind: 'padded', bytes: MiB - 4096 };
    expect(await reasonOf(verifier().verify(await issuer.token()))).to.equal('accepted');
  });

  for (const declareLength of [false, true]) {
    it(`refuses a JWKS over 1 MiB (${declareLength ? 'with' : 'without'} Content-Length) and stops reading it`, async () => {
      issuer.jwks = { kind: 'padded', bytes: 64 * MiB, declareLength };
      expect(await reasonOf(verifier().verify(await issuer.token()))).to.equal('issuer_unavailable');
      // Refused as a failed fetch: nothing more is asked before the cooldown.
      expect(issuer.count(JWKS_PATH)).to.equal(1);
      // The issuer got to write a few socket buffers at most, never the 64 MiB.
      expect(issuer.written.get(JWKS_PATH) ?? 0).to.be.below(16 * MiB);
    });
  }

  it('takes a smaller JWKS cap from jwksMaxBytes', async () => {
    issuer.jwks = { kind: 'padded', bytes: 64 * 1024 };
    expect(await reasonOf(verifier({ jwksMaxBytes: 32 * 1024 }).verify(await issuer.token()))).to.equal(
      'issuer_unavailable',
    );
  });

  it('refuses metadata over the 64 KiB default cap', async () => {
    issuer.metadata = { kind: 'padded', bytes: 128 * 1024 };
    expect(await reasonOf(verifier().verify(await issuer.token()))).to.equal('issuer_unavailable');
    expect(issuer.count(JWKS_PATH)).to.equal(0);
  });

  it('does not follow a redirect of the metadata, even to a document for the same issuer', async () => {
    other.metadata = { kind: 'document', body: { issuer: issuer.issuer, jwks_uri: `${issuer.issuer}${JWKS_PATH}` } };
    issuer.metadata = { kind: 'redirect', to: `${other.issuer}${METADATA_PATH}` };
    expect(await reasonOf(verifier().verify(await issuer.token()))).to.equal('issuer_unavailable');
    expect(other.count(METADATA_PATH)).to.equal(0);
  });

  it('does not follow a redirect of the JWKS', async () => {
    other.key = issuer.key;
    issuer.jwks = { kind: 'redirect', to: `${other.issuer}${JWKS_PATH}` };
    expect(await reasonOf(verifier().verify(await issuer.token()))).to.equal('issuer_unavailable');
    expect(other.count(JWKS_PATH)).to.equal(0);
  });
});

/**
 * Key fetches are bounded in every outcome (server/identity/issuer-keys.ts): whether the issuer's
 * JWKS answers well, 500, invalid JSON, a document that is no key set, or nothing at all, one
 * issuer sees at most one fetch per cooldown, then fewer (exponential backoff) while it keeps
 * failing, however many tokens with invented `kid`s arrive. Time is an injected clock: the tests
 * drive ten minutes of tokens in a moment and count the requests the loopback issuer saw.
 */
import { expect } from 'chai';
import { AccessTokenVerifier, type AccessTokenOptions } from '../../server/identity/index.js';
import { silentLogger } from '../../server/engine/index.js';
import {
  JWKS_PATH,
  METADATA_PATH,
  startLocalKeyServer,
  type Behaviour,
  type LocalKeyServer,
  reasonOf,
  TEST_AUDIENCE as AUDIENCE,
} from '../helpers/local-key-server.js';

const COOLDOWN_MS = 30_000;

/** A clock the test moves by hand. */
function manualClock(start = Date.now()) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('key fetches bounded in every outcome', function () {
  this.timeout(60_000);
  let issuer: LocalKeyServer;
  let clock: ReturnType<typeof manualClock>;

  const verifier = (options: Partial<AccessTokenOptions> = {}) =>
    new AccessTokenVerifier({
      issuers: [issuer.issuer],
      audience: AUDIENCE,
      keyRefreshCooldownMs: COOLDOWN_MS,
      fetchTimeoutMs: 300,
      clock: clock.now,
      logger: silentLogger,
      ...options,
    });

  /** One token with an invented kid every `stepMs` for `totalMs` of clock time; the reasons seen. */
  async function hammer(target: AccessTokenVerifier, totalMs: number, stepMs: number): Promise<Set<string>> {
    const token = await issuer.token({ exp: Math.floor(clock.now() / 1000) + 3600 }, { kid: 'invented' });
    const reasons = new Set<string>();
    for (let elapsed = 0; elapsed < totalMs; elapsed += stepMs) {
      reasons.add(await reasonOf(target.verify(token)));
      clock.advance(stepMs);
    }
    return reasons;
  }

  beforeEach(async () => {
    issuer = await startLocalKeyServer(AUDIENCE);
    clock = manualClock();
  });
  afterEach(() => issuer.close());

  const failures: Array<[string, Behaviour]> = [
    ['HTTP 500', { kind: 'status', status: 500 }],
    ['invalid JSON', { kind: 'invalid-json' }],
    ['a document that is not a key set', { kind: 'document', body: { keys: 'none' } }],
  ];

  for (const [name, behaviour] of failures) {
    it(`a cold issuer whose JWKS answers ${name}: one fetch per cooldown, then backoff, for 10 min of invented kids`, async () => {
      issuer.jwks = behaviour;
      const target = verifier();
      // One token every 100 ms of clock time for ten minutes: 6,000 tokens.
      const reasons = await hammer(target, 10 * 60_000, 100);
      expect([...reasons]).to.deep.equal(['issuer_unavailable']);
      // Attempts at 0, 30, 90, 210, 330, 450 and 570 s (30 s doubling, capped at 2 min): 7, never
      // the 20 a plain 30 s cooldown would allow, let alone one per token.
      expect(issuer.count(JWKS_PATH)).to.be.within(2, 7);
      expect(issuer.count(METADATA_PATH)).to.be.at.most(7);
    });
  }

  it('a JWKS that does not answer (timeout) counts as a failed fetch too', async () => {
    issuer.jwks = { kind: 'hang' };
    const target = verifier({ fetchTimeoutMs: 100 });
    const reasons = await hammer(target, 60_000, 1000);
    expect([...reasons]).to.deep.equal(['issuer_unavailable']);
    // At 0 and 30 s only (the next is due at 90 s).
    expect(issuer.count(JWKS_PATH)).to.equal(2);
  });

  it('a cold issuer whose metadata fails is bounded the same way', async () => {
    issuer.metadata = { kind: 'status', status: 500 };
    const target = verifier();
    await hammer(target, 10 * 60_000, 100);
    // The RFC 8414 URL is the first of the well-known URLs tried in each attempt.
    expect(issuer.count(METADATA_PATH)).to.be.within(2, 7);
    expect(issuer.count(JWKS_PATH)).to.equal(0);
  });

  it('many tokens at the same instant share one fetch', async () => {
    issuer.jwks = { kind: 'status', status: 500 };
    const target = verifier();
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => issuer.token({}, { kid: `invented-${i}` })));
    const reasons = await Promise.all(tokens.map((token) => reasonOf(target.verify(token))));
    expect(new Set(reasons)).to.deep.equal(new Set(['issuer_unavailable']));
    expect(issuer.count(JWKS_PATH)).to.equal(1);
  });

  it('a warm issuer whose JWKS starts failing: invented kids cost one fetch per cooldown, known keys keep working', async () => {
    const target = verifier();
    expect(await reasonOf(target.verify(await issuer.token()))).to.equal('accepted');
    expect(issuer.count(JWKS_PATH)).to.equal(1);
    issuer.jwks = { kind: 'status', status: 500 };
    clock.advance(COOLDOWN_MS);
    const reasons = await hammer(target, 10 * 60_000, 100);
    // An unknown kid while the keys cannot be fetched may be a rotation: 503, not 401.
    expect([...reasons]).to.deep.equal(['issuer_unavailable']);
    expect(issuer.count(JWKS_PATH) - 1).to.be.within(2, 7);
    // The last keys the issuer published still verify its tokens while it fails (for up to an hour).
    const good = await issuer.token({ iat: Math.floor(clock.now() / 1000), exp: Math.floor(clock.now() / 1000) + 300 });
    expect(await reasonOf(target.verify(good))).to.equal('accepted');
  });

  it('an unknown kid at a healthy issuer is 401 and fetches again only after the cooldown', async () => {
    const target = verifier();
    expect(await reasonOf(target.verify(await issuer.token()))).to.equal('accepted');
    const reasons = await hammer(target, 60_000, 100);
    expect([...reasons]).to.deep.equal(['unknown_key']);
    // The first fetch, then one at 30 s (the first invented kid came before the cooldown passed).
    expect(issuer.count(JWKS_PATH)).to.equal(2);
  });

  it('recovers once the issuer answers again, after the backoff', async () => {
    issuer.jwks = { kind: 'status', status: 500 };
    const target = verifier();
    const good = () => issuer.token({ iat: Math.floor(clock.now() / 1000), exp: Math.floor(clock.now() / 1000) + 300 });
    expect(await reasonOf(target.verify(await good()))).to.equal('issuer_unavailable');
    issuer.jwks = { kind: 'ok' };
    clock.advance(COOLDOWN_MS - 1);
    expect(await reasonOf(target.verify(await good()))).to.equal('issuer_unavailable');
    clock.advance(1);
    expect(await reasonOf(target.verify(await good()))).to.equal('accepted');
  });

  it('keys past their maximum age are used while the refresh fails, for an hour at most', async () => {
    const target = verifier();
    const good = () => issuer.token({ iat: Math.floor(clock.now() / 1000), exp: Math.floor(clock.now() / 1000) + 300 });
    expect(await reasonOf(target.verify(await good()))).to.equal('accepted');
    issuer.jwks = { kind: 'status', status: 500 };
    clock.advance(11 * 60_000);
    expect(await reasonOf(target.verify(await good()))).to.equal('accepted');
    expect(issuer.count(JWKS_PATH)).to.equal(2);
    clock.advance(50 * 60_000);
    expect(await reasonOf(target.verify(await good()))).to.equal('issuer_unavailable');
  });
});

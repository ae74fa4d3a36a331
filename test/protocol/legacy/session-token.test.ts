import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { openSession, sealSession, type SessionTokenOptions } from '../../../server/protocol/legacy/session-token.js';
import { toLegacyResult } from '../../../server/protocol/legacy/legacy-service.js';
import { negotiateLegacyVersion } from '../../../server/protocol/legacy/legacy-versions.js';
import { openState } from '../../../server/engine/index.js';
import { testKeyRing } from '../../helpers/test-server.js';

describe('session-token: the sealed Mcp-Session-Id of a 2025-11-25 session', () => {
  let now = 1_800_000_000_000;
  const options: SessionTokenOptions = {
    keyRing: testKeyRing(),
    randomBytes: (length) => new Uint8Array(randomBytes(length)),
    clock: () => now,
    ttlSeconds: 60,
  };
  const settled = { protocolVersion: '2025-11-25', clientCapabilities: { elicitation: { form: {} } } };

  it('opens for the principal it was issued to, with the version and capabilities initialize settled', () => {
    const { token, claims } = sealSession('alice', settled, options);
    expect(token).to.match(/^[\x21-\x7e]+$/);
    expect(openSession(token, 'alice', options)).to.deep.equal(claims);
    expect(claims).to.include({ protocolVersion: '2025-11-25' });
    expect(claims.clientCapabilities).to.deep.equal({ elicitation: { form: {} } });
  });

  it("refuses another principal's session, a tampered token and an expired one", () => {
    const { token } = sealSession('alice', settled, options);
    expect(openSession(token, 'mallory', options)).to.equal(undefined);
    expect(openSession(`${token.slice(0, -3)}AAA`, 'alice', options)).to.equal(undefined);
    now += 60_000;
    expect(openSession(token, 'alice', options)).to.equal(undefined);
  });

  it('is never a requestState, and a requestState is never a session (different target)', () => {
    const { token } = sealSession('alice', settled, options);
    const opened = openState(token, options.keyRing, 4096);
    expect(opened?.claims.target).to.equal('legacy-session');
  });
});

describe('legacy-versions and results on the older wire', () => {
  it('echoes a served version and answers anything else with the latest', () => {
    expect(negotiateLegacyVersion('2025-06-18')).to.equal('2025-06-18');
    expect(negotiateLegacyVersion('2025-03-26')).to.equal('2025-11-25');
    expect(negotiateLegacyVersion(undefined)).to.equal('2025-11-25');
  });

  it('drops resultType, caching hints and the serverInfo _meta, and keeps every other field', () => {
    const result = toLegacyResult({
      resultType: 'complete',
      ttlMs: 1000,
      cacheScope: 'public',
      tools: [],
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'baton' }, 'com.example/trace': 't' },
    });
    expect(result).to.deep.equal({ tools: [], _meta: { 'com.example/trace': 't' } });
  });
});

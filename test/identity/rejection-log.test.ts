/**
 * Refused tokens are logged at a bounded rate (server/identity/rejection-log.ts): at most one
 * `access_token_rejected` line per reason per interval (10 s by default), the next line counting
 * the ones left out, so 130,000 bad tokens write a handful of lines and no count is lost.
 */
import { expect } from 'chai';
import { AccessTokenVerifier, RejectionLog } from '../../server/identity/index.js';
import type { Logger } from '../../server/engine/index.js';

type Line = { event: string; fields: Record<string, unknown> | undefined };

function recordingLogger(lines: Line[]): Logger {
  const push = (event: string, fields?: Record<string, unknown>) => lines.push({ event, fields });
  return { info: push, warn: push, error: push };
}

describe('RejectionLog', () => {
  it('writes one line per reason per interval and counts the rest in the next line', () => {
    const lines: Line[] = [];
    let now = 1_000_000;
    const log = new RejectionLog(recordingLogger(lines), 10_000, () => now);
    for (let i = 0; i < 1000; i += 1) {
      log.rejected('signature');
      log.rejected('expired');
      now += 5;
    }
    // 5 s of refusals: the first of each reason only.
    expect(lines.map((line) => line.fields)).to.deep.equal([{ reason: 'signature' }, { reason: 'expired' }]);
    now += 5_000;
    log.rejected('signature');
    expect(lines.at(-1)!.fields).to.deep.equal({ reason: 'signature', suppressed: 999 });
    expect(lines.every((line) => line.event === 'access_token_rejected')).to.equal(true);
  });

  it('writes every line with an interval of 0', () => {
    const lines: Line[] = [];
    const log = new RejectionLog(recordingLogger(lines), 0, () => 0);
    for (let i = 0; i < 5; i += 1) log.rejected('issuer');
    expect(lines).to.have.length(5);
  });
});

describe('AccessTokenVerifier logs refusals at a bounded rate', () => {
  it('130,000 malformed tokens in a second of clock time write one line', async () => {
    const lines: Line[] = [];
    let now = Date.now();
    const verifier = new AccessTokenVerifier({
      issuers: ['https://id.example.com'],
      audience: 'https://mcp.example.com/mcp',
      logger: recordingLogger(lines),
      clock: () => now,
    });
    for (let i = 0; i < 130_000; i += 1) {
      await verifier.verify(`not-a-token-${i}`).catch(() => undefined);
      if (i % 1000 === 0) now += 7;
    }
    expect(lines.filter((line) => line.event === 'access_token_rejected')).to.have.length(1);
    now += 10_000;
    await verifier.verify('still-not-a-token').catch(() => undefined);
    expect(lines.at(-1)!.fields).to.deep.equal({ reason: 'malformed', suppressed: 129_999 });
  });
});

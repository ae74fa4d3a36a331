/**
 * The long-lived budget's fair shares, at its default figures: 32 addresses holding 16 listen
 * streams each (or 16 parked 2025-11-25 calls) once filled the instance's 512, so an honest caller
 * got 503; now past three quarters of the total only callers holding little are admitted.
 */
import { expect } from 'chai';
import { LongLivedBudget, ProtocolError, type LongLivedKind, type Principal } from '../../server/protocol/index.js';

const fromAddress = (client: string): Principal => ({ id: 'anonymous', authenticated: false, client });
const signedIn = (id: string, client = '10.9.9.9'): Principal => ({ id, authenticated: true, client });

/** Each caller tries `each` slots; answers the refusals. */
function flood(budget: LongLivedBudget, kind: LongLivedKind, callers: Principal[], each: number): ProtocolError[] {
  const refused: ProtocolError[] = [];
  for (const caller of callers) {
    for (let i = 0; i < each; i++) {
      const slot = budget.acquire(kind, caller);
      if (slot instanceof ProtocolError) refused.push(slot);
    }
  }
  return refused;
}

const addresses = (count: number) => Array.from({ length: count }, (_, i) => fromAddress(`10.0.${i >> 8}.${i & 255}`));

describe('LongLivedBudget fair shares', () => {
  for (const kind of ['listen_streams', 'waiting_calls'] as const) {
    it(`leaves room for a 33rd address after 32 addresses x 16 ${kind} (defaults: 16 each, 512 in all)`, () => {
      const budget = new LongLivedBudget();
      const refused = flood(budget, kind, addresses(32), 16);
      expect(budget.held(kind)).to.be.below(512);
      // Each refusal is the caller's (429): others were still admitted.
      for (const error of refused) {
        expect(error.code).to.equal(-31000);
        expect(error.httpStatus).to.equal(429);
        expect((error.data as { reason: string }).reason).to.equal(kind);
      }
      expect(budget.acquire(kind, fromAddress('192.0.2.33'))).to.be.a('function');
    });
  }

  it('past three quarters of the total, refuses a caller already holding one with 429 and limit 1', () => {
    const budget = new LongLivedBudget();
    flood(budget, 'listen_streams', addresses(24), 16);
    const first = budget.acquire('listen_streams', fromAddress('192.0.2.1'));
    expect(first).to.be.a('function');
    const second = budget.acquire('listen_streams', fromAddress('192.0.2.1'));
    expect(second).to.be.instanceOf(ProtocolError);
    expect((second as ProtocolError).httpStatus).to.equal(429);
    expect((second as ProtocolError).data).to.deep.equal({ reason: 'listen_streams', limit: 1 });
  });

  it('counts an authenticated principal once, wherever it connects from', () => {
    const budget = new LongLivedBudget({ listen_streams: { perClient: 2, perInstance: 100 } });
    expect(budget.acquire('listen_streams', signedIn('iss|alice', '10.0.0.1'))).to.be.a('function');
    expect(budget.acquire('listen_streams', signedIn('iss|alice', '10.0.0.2'))).to.be.a('function');
    const third = budget.acquire('listen_streams', signedIn('iss|alice', '10.0.0.3'));
    expect((third as ProtocolError).httpStatus).to.equal(429);
    expect(budget.acquire('listen_streams', signedIn('iss|bob', '10.0.0.1'))).to.be.a('function');
  });

  it("answers 503 once the instance's total is held, and gives slots back once", () => {
    const budget = new LongLivedBudget({ waiting_calls: { perClient: 1, perInstance: 2 } });
    const a = budget.acquire('waiting_calls', fromAddress('10.0.0.1'));
    const b = budget.acquire('waiting_calls', fromAddress('10.0.0.2'));
    const full = budget.acquire('waiting_calls', fromAddress('10.0.0.3'));
    expect((full as ProtocolError).httpStatus).to.equal(503);
    expect((full as ProtocolError).data).to.deep.equal({ reason: 'waiting_calls', limit: 2 });
    (a as () => void)();
    (a as () => void)();
    expect(budget.held('waiting_calls')).to.equal(1);
    expect(budget.acquire('waiting_calls', fromAddress('10.0.0.3'))).to.be.a('function');
    (b as () => void)();
  });
});

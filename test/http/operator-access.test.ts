/** Who is an operator (operator-access.ts), and the console forms' tokens (console-csrf.ts). */
import { expect } from 'chai';
import type { Context } from 'koa';
import { randomBytes } from 'node:crypto';
import { KeyRing } from '../../server/engine/index.js';
import { ConsoleCsrf, CSRF_LIFETIME_MS } from '../../server/http/console-csrf.js';
import { isLoopbackAddress, operatorAccess } from '../../server/http/operator-access.js';

const from = (remoteAddress: string) => ({ req: { socket: { remoteAddress } } }) as unknown as Context;
const key = (id: string) => ({ id, secret: new Uint8Array(randomBytes(32)) });

describe('operatorAccess', () => {
  it('without authentication, lets in loopback callers only, and only when asked to', async () => {
    const dev = operatorAccess({ loopback: true });
    for (const address of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1']) {
      expect(await dev(from(address)), address).to.not.equal(undefined);
    }
    for (const address of ['10.0.0.2', '::ffff:10.0.0.2', '192.168.1.1', 'fe80::1']) {
      expect(await dev(from(address)), address).to.equal(undefined);
    }
    expect(await operatorAccess({})(from('127.0.0.1'))).to.equal(undefined);
    expect(isLoopbackAddress(undefined)).to.equal(false);
  });

  it('with authentication, never takes a loopback caller the hook does not name an operator', async () => {
    const access = operatorAccess({ authenticate: () => ({ id: 'token:user', authenticated: true }), loopback: true });
    expect(await access(from('127.0.0.1'))).to.equal(undefined);
    const ops = operatorAccess({
      authenticate: () => ({ id: 'token:ops', authenticated: true }),
      operators: ['token:ops'],
    });
    expect((await ops(from('10.0.0.9')))?.id).to.equal('token:ops');
  });
});

describe('ConsoleCsrf', () => {
  it('binds a token to the operator, the action and the task, for a shift, across a key rotation', () => {
    let now = 1_800_000_000_000;
    const old = key('old');
    const issuer = new ConsoleCsrf(new KeyRing([old]), () => now);
    const token = issuer.token('token:ops', 'cancel', 'task-1');
    const rotated = new ConsoleCsrf(new KeyRing([key('new'), old]), () => now);
    expect(rotated.check(token, 'token:ops', 'cancel', 'task-1')).to.equal(true);
    expect(rotated.check(token, 'token:other', 'cancel', 'task-1')).to.equal(false);
    expect(rotated.check(token, 'token:ops', 'cancel', 'task-2')).to.equal(false);
    expect(rotated.check(token, 'token:ops', 'answer', 'task-1')).to.equal(false);
    expect(
      new ConsoleCsrf(new KeyRing([key('new')]), () => now).check(token, 'token:ops', 'cancel', 'task-1'),
    ).to.equal(false);
    for (const broken of [undefined, '', 'a.b', `${token}.x`, token.replace('old.', 'new.')]) {
      expect(rotated.check(broken, 'token:ops', 'cancel', 'task-1'), String(broken)).to.equal(false);
    }
    now += CSRF_LIFETIME_MS + 1000;
    expect(rotated.check(token, 'token:ops', 'cancel', 'task-1')).to.equal(false);
  });
});

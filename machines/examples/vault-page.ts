/**
 * The page the connect-payments example sends users to: a form that puts the key in the vault.
 * It is part of the example, not of Baton; a real deployment links to its own secure page.
 */
import Router from '@koa/router';
import type { SecretVault } from './secret-vault.js';

const CONNECTION_ID = /^[0-9a-f-]{36}$/;

function page(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Connect your account</title></head><body>${body}</body></html>`;
}

export function vaultPageRouter(vault: SecretVault, prefix = '/vault'): Router {
  const router = new Router({ prefix });
  router.get('/:id', (ctx) => {
    if (!CONNECTION_ID.test(ctx.params.id!)) return;
    ctx.type = 'html';
    ctx.body = page(
      `<h1>Enter your secret key</h1><form method="post"><input name="secret" type="password" autocomplete="off" required minlength="8"><button>Store in vault</button></form>`,
    );
  });
  router.post('/:id', async (ctx) => {
    if (!CONNECTION_ID.test(ctx.params.id!)) return;
    let raw = '';
    for await (const chunk of ctx.req) {
      raw += chunk;
      if (raw.length > 4096) ctx.throw(413);
    }
    const secret = new URLSearchParams(raw).get('secret') ?? '';
    if (secret.length < 8) ctx.throw(400, 'The key is too short.');
    await vault.store(ctx.params.id!, secret);
    ctx.type = 'html';
    ctx.body = page('<h1>Stored.</h1><p>You can go back to your assistant and continue.</p>');
  });
  return router;
}

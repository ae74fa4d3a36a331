/**
 * `baton stdio`: the tools of `baton serve`, over stdin and stdout (newline-delimited JSON-RPC,
 * server/stdio/). Logs go to stderr; stdout carries only MCP messages. The process exits once
 * stdin ends and the requests in flight are answered.
 *
 * The connect-payments example sends the user to a web page (URL elicitation), so the example
 * vault page is served on loopback beside the transport: on PORT when set, otherwise on a free
 * port. It serves that page only, never MCP.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { configFromEnvironment, DEV_KEY_WARNING, urlHost } from '../settings/environment-config.js';
import { createMcpService } from '../create-mcp-service.js';
import { stderrLogger, type KeyRing } from '../engine/index.js';
import { originGuard } from '../http/index.js';
import { checkSingleUseGuard, openHostWarning, originPolicyOf, securityOptions } from '../settings/security-options.js';
import { conformanceAsked, servedCatalogue } from './served-catalogue.js';
import { taskOptions } from '../settings/task-options.js';
import { describeSource, examplesNotice, findToolsSource } from './tools-module.js';
import { principalFromEnvironment, serveStdio } from '../stdio/index.js';
import { createMemoryVault, vaultPageRouter, type SecretVault } from '../../machines/index.js';

export interface StdioCommandOptions {
  tools?: string;
  conformance?: boolean;
}

export async function stdioCommand(options: StdioCommandOptions): Promise<number> {
  const config = configFromEnvironment();
  const source = findToolsSource(options.tools);
  const notice = examplesNotice(source);
  if (notice) process.stderr.write(`${notice}\n`);
  if (config.devKey) process.stderr.write(`${DEV_KEY_WARNING}\n`);
  const vault = createMemoryVault();
  const principal = principalFromEnvironment();
  // The examples' vault page listens on HOST: off loopback it needs a Host list like `serve`.
  const openHost = source.module ? undefined : openHostWarning(config);
  if (openHost) process.stderr.write(`${openHost}\n`);
  const page = source.module
    ? undefined
    : await listenVaultPage(vault, process.env.PORT ? config.port : 0, config, principal.id);
  const examples = { publicUrl: page && !process.env.BATON_PUBLIC_URL ? page.origin : config.publicUrl, vault };
  const catalogue = await servedCatalogue(source, examples, conformanceAsked(options.conformance));
  // Limits and the single-use guard as on HTTP; no bearer tokens: stdio takes its user from the
  // environment (spec, basic/authorization).
  const { authenticate: _authenticate, protectedResource: _protectedResource, ...security } = securityOptions(config);
  await checkSingleUseGuard(security, stderrLogger);
  // The service alone: no HTTP app, so no docs pages (nor their start-up check).
  const baton = createMcpService({
    ...catalogue,
    ...security,
    ...taskOptions(config, catalogue.tools),
    ...(config.startOn ? { startOn: config.startOn } : {}),
    keyRing: config.keyRing,
  });
  const { dispatcher, legacy } = baton;
  const connection = serveStdio({
    dispatcher,
    legacy,
    input: process.stdin,
    output: process.stdout,
    logger: stderrLogger,
    principal,
  });
  stderrLogger.info('stdio_ready', {
    tools: catalogue.tools.map((t) => t.name),
    from: describeSource(source),
    ...(source.module ? {} : { vaultPage: examples.publicUrl }),
  });

  const stop = () => void connection.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await connection.closed;
  page?.server.closeAllConnections();
  page?.server.close();
  await baton.close();
  // Exit once the last answer is flushed: a timer or socket left behind must not hold the client.
  process.stdout.write('', () => process.exit(0));
  return -1;
}

/**
 * The page answers on loopback for the one user of this process: whoever opens it on this machine
 * is taken to be `user` (stdio has no login), so the page checks the reference and its expiry.
 */
async function listenVaultPage(
  vault: SecretVault,
  port: number,
  config: Parameters<typeof originPolicyOf>[0] & { keyRing: KeyRing },
  user: string,
) {
  const { host } = config;
  const app = new Koa();
  app.use(originGuard(originPolicyOf(config)));
  app.use(vaultPageRouter(vault, { keyRing: config.keyRing, identify: async () => user }).routes());
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, host);
    listening.once('error', reject);
    listening.once('listening', () => resolve(listening));
  });
  const address = server.address() as AddressInfo;
  return { server, origin: `http://${urlHost(address.address)}:${address.port}` };
}

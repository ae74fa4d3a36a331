/**
 * The tools this server serves by default: the examples, each one machine in its own file.
 * Add a tool by writing its machine under machines/ and listing it here; no server code changes.
 */
import type { ToolDefinition } from '../server/engine/index.js';
import { collectFeedbackTool } from './examples/collect-feedback.js';
import { createConnectPaymentsTool } from './examples/connect-payments.js';
import { provisionDatabaseTool } from './examples/provision-database.js';
import { releaseTool } from './examples/release.js';
import { shipReleaseTool } from './examples/ship-release.js';
import type { SecretVault } from './examples/secret-vault.js';
import { tools as userTools } from './tools/index.js';

export interface ExampleToolOptions {
  /** Where the vault page is reachable by users, e.g. `http://127.0.0.1:3000`. */
  publicUrl: string;
  vault: SecretVault;
}

export function exampleTools(options: ExampleToolOptions): ToolDefinition[] {
  return [
    releaseTool,
    provisionDatabaseTool,
    createConnectPaymentsTool({
      vault: options.vault,
      pageUrl: (pageRef) => `${options.publicUrl}/vault/${pageRef}`,
    }),
    // Drawn, not coded: its machine is a JSON config (examples/collect-feedback.machine.json).
    collectFeedbackTool,
    // Long work as a task (docs/tasks.md).
    shipReleaseTool,
  ];
}

/** What `baton serve` serves: the examples, then your tools (machines/tools/index.ts). */
export function servedTools(options: ExampleToolOptions): ToolDefinition[] {
  return [...exampleTools(options), ...userTools];
}

export { createMemoryVault, type SecretVault } from './examples/secret-vault.js';
export { vaultPageRouter, VAULT_PAGE_BODY_TIMEOUT_MS, type VaultPageOptions } from './examples/vault-page.js';

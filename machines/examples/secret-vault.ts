/**
 * Where the connect-payments example keeps secret keys: never in the machine's context, never in
 * requestState, never in the chat. The in-memory vault is for one instance and for demos; a fleet
 * plugs in its real secret store behind the same interface.
 */
export interface SecretVault {
  /**
   * Stores the key for a connection. Resolves false, storing nothing, once the connection's flow
   * has found its key (`lookup`): the flow has moved past the page, and an old link must not
   * replace the key of a connected account.
   */
  store(connectionId: string, secret: string): Promise<boolean>;
  /**
   * What the tool may know about a stored secret: that it exists, and its last four characters.
   * Finding it closes the connection to the page.
   */
  lookup(connectionId: string): Promise<{ last4: string } | undefined>;
}

export function createMemoryVault(options: { ttlMs?: number; maxEntries?: number } = {}): SecretVault {
  const ttlMs = options.ttlMs ?? 30 * 60 * 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { secret: string; expiresAt: number; taken: boolean }>();
  return {
    async store(connectionId, secret) {
      const entry = entries.get(connectionId);
      if (entry?.taken && entry.expiresAt >= Date.now()) return false;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(connectionId, { secret, expiresAt: Date.now() + ttlMs, taken: false });
      return true;
    },
    async lookup(connectionId) {
      const entry = entries.get(connectionId);
      if (!entry || entry.expiresAt < Date.now()) return undefined;
      entry.taken = true;
      return { last4: entry.secret.slice(-4) };
    },
  };
}

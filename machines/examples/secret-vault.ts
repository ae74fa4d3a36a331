/**
 * Where the connect-payments example keeps secret keys: never in the machine's context, never in
 * requestState, never in the chat. The in-memory vault is for one instance and for demos; a fleet
 * plugs in its real secret store behind the same interface.
 */
export interface SecretVault {
  store(connectionId: string, secret: string): Promise<void>;
  /** What the tool may know about a stored secret: that it exists, and its last four characters. */
  lookup(connectionId: string): Promise<{ last4: string } | undefined>;
}

export function createMemoryVault(options: { ttlMs?: number; maxEntries?: number } = {}): SecretVault {
  const ttlMs = options.ttlMs ?? 30 * 60 * 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { secret: string; expiresAt: number }>();
  return {
    async store(connectionId, secret) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(connectionId, { secret, expiresAt: Date.now() + ttlMs });
    },
    async lookup(connectionId) {
      const entry = entries.get(connectionId);
      if (!entry || entry.expiresAt < Date.now()) return undefined;
      return { last4: entry.secret.slice(-4) };
    },
  };
}

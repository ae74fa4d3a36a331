/**
 * A notification whose params were serialized once and are shared by every stream they go to
 * (engine/tasks/task-followers.ts: one task change, many listeners). Each listener's message
 * differs only in its `_meta` (the subscription id), so the message is written in three parts: a
 * head with the envelope and `_meta`, the shared params bytes, and a tail. Transports write the
 * parts as they are; anything else may JSON.stringify it (toJSON) at the usual cost.
 */
export interface SharedJson {
  /** The JSON text of an object: `{…}`. */
  json: string;
  /** The same text as UTF-8, made once. */
  bytes(): Buffer;
}

export class PreparedNotification {
  readonly #head: string;
  readonly #params: SharedJson;

  constructor(method: string, meta: Record<string, unknown>, params: SharedJson) {
    this.#params = params;
    const more = params.json === '{}' ? '' : ',';
    this.#head = `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":{"_meta":${JSON.stringify(meta)}${more}`;
  }

  /** Head, the shared params after their opening brace (a view, not a copy), tail. */
  parts(): [string, Buffer, string] {
    return [this.#head, this.#params.bytes().subarray(1), '}'];
  }

  text(): string {
    return `${this.#head}${this.#params.json.slice(1)}}`;
  }

  toJSON(): unknown {
    return JSON.parse(this.text());
  }
}

/**
 * Bounds on the shape of an incoming message, checked on its raw text right after JSON.parse
 * accepted it (a parse error stays -32700) and before anything walks the values. A 1 MiB body of
 * nested or tiny values parses into tens of megabytes of objects, and everything downstream
 * (schema validation, the argument digest, the machine's context) walks values recursively. The
 * envelope keeps nothing of such a message, so it is dropped as soon as it is refused. No MCP
 * request needs more than these.
 */
import { ErrorCode } from './error-catalogue.js';
import { ProtocolError } from './protocol-error.js';

export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_VALUES = 50_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** Where the string starting at `from` ends: its unescaped closing quote (the text is valid JSON). */
function closingQuote(text: string, from: number): number {
  let quote = text.indexOf('"', from);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

/** Throws -32600 when the text nests deeper than MAX_JSON_DEPTH or holds more than MAX_JSON_VALUES. */
export function checkJsonShape(text: string): void {
  let depth = 0;
  let values = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Strings are skipped with a native search: the longest ones (a sealed requestState, the
    // answers) hold no structure, and walking them a character at a time was most of this check.
    if (c === QUOTE) i = closingQuote(text, i + 1);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new ProtocolError(
          ErrorCode.InvalidRequest,
          `Invalid Request: nested more than ${MAX_JSON_DEPTH} levels deep`,
        );
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    else if (c === COMMA && ++values > MAX_JSON_VALUES) {
      throw new ProtocolError(ErrorCode.InvalidRequest, `Invalid Request: more than ${MAX_JSON_VALUES} JSON values`);
    }
  }
}

/**
 * Bounds on the shape of an incoming message, checked on the raw text before JSON.parse builds
 * anything. A 1 MiB body of nested or tiny values parses into tens of megabytes of objects held
 * for the whole round; everything downstream (schema validation, the argument digest, superjson)
 * also walks values recursively. No MCP request needs more than these.
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

/** Throws -32600 when the text nests deeper than MAX_JSON_DEPTH or holds more than MAX_JSON_VALUES. */
export function checkJsonShape(text: string): void {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
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

/**
 * Matching `Mcp-Param-*` headers against the body (spec, transports/streamable-http "Custom
 * Headers from Tool Parameters"): which value of the arguments a declared parameter names, and
 * whether a header stands for it. The declarations come from the tool's schema
 * (engine/catalogue/header-param-schema.ts).
 */
import { isRecord, type HeaderParam } from '../engine/index.js';

/** The body's value for a parameter, or undefined when the arguments do not hold one. */
export function headerParamValue(args: unknown, param: HeaderParam): unknown {
  let value: unknown = args;
  for (const key of param.path) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * Whether a decoded header value stands for the body's value: strings exactly, integers
 * numerically (`42.0` is 42, spec SHOULD), booleans as `true` / `false`.
 */
export function headerMatchesValue(header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'boolean') return header === String(value);
  if (typeof value === 'number') {
    const trimmed = header.trim();
    return trimmed !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed) && Number(trimmed) === value;
  }
  return false;
}

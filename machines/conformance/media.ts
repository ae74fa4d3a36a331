/** Tiny media payloads the conformance fixtures return (base64): a 1x1 PNG and an empty WAV. */
export const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
export const WAV_EMPTY = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

/** The input schema of a tool that takes no arguments (spec, server/tools: SHOULD). */
export const NO_ARGUMENTS = { type: 'object', additionalProperties: false } as const;

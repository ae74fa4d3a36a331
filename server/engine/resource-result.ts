/**
 * How a resource machine's output becomes `contents`: a string is text, `{ blob }` is base64
 * binary, `{ text }` is text, an array is several contents, and `{ contents }` is taken as is.
 * The read URI and the resource's mimeType fill in what the output leaves out.
 */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

function one(uri: string, mimeType: string | undefined, item: unknown): ResourceContents {
  const base = { uri, ...(mimeType ? { mimeType } : {}) };
  if (typeof item === 'string') return { ...base, text: item };
  if (item && typeof item === 'object') {
    const { text, blob } = item as ResourceContents;
    if (typeof text === 'string' || typeof blob === 'string') return { ...base, ...(item as ResourceContents) };
  }
  throw new TypeError('A resource machine must output a string, { text }, { blob }, an array of them, or { contents }');
}

export function toResourceContents(uri: string, mimeType: string | undefined, output: unknown): ResourceContents[] {
  if (output && typeof output === 'object' && Array.isArray((output as { contents?: unknown }).contents)) {
    return (output as { contents: unknown[] }).contents.map((item) => one(uri, mimeType, item));
  }
  if (Array.isArray(output)) return output.map((item) => one(uri, mimeType, item));
  return [one(uri, mimeType, output)];
}

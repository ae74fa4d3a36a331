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
    const { uri: own, mimeType: type, text, blob, _meta } = item as ResourceContents & { _meta?: unknown };
    // Exactly one of text and blob (TextResourceContents | BlobResourceContents); only their fields.
    if ((typeof text === 'string') !== (typeof blob === 'string')) {
      return {
        ...base,
        ...(typeof own === 'string' ? { uri: own } : {}),
        ...(typeof type === 'string' ? { mimeType: type } : {}),
        ...(typeof text === 'string' ? { text } : { blob: blob! }),
        ...(_meta && typeof _meta === 'object' ? { _meta } : {}),
      };
    }
  }
  throw new TypeError(
    'A resource machine must output a string, { text } or { blob } (one of the two), an array of them, or { contents }',
  );
}

export function toResourceContents(uri: string, mimeType: string | undefined, output: unknown): ResourceContents[] {
  if (output && typeof output === 'object' && Array.isArray((output as { contents?: unknown }).contents)) {
    return (output as { contents: unknown[] }).contents.map((item) => one(uri, mimeType, item));
  }
  if (Array.isArray(output)) return output.map((item) => one(uri, mimeType, item));
  return [one(uri, mimeType, output)];
}

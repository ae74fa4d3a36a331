/**
 * Start-up checks of what an entry shows clients and what it needs (authoring/catalogue-fields.ts):
 * scopes that fit in a `WWW-Authenticate` challenge, icons clients can load, `_meta` keys the spec
 * allows. A wrong value would only show up in a client, or break the challenge, so it stops the
 * server with the fix instead.
 */
import type { CatalogueFields } from '../authoring/catalogue-fields.js';
import { isJsonFaithful } from '../state/json-faithful.js';
import { isRecord } from '../plain-objects.js';

/** RFC 6749 section 3.3 `scope-token`: no space, no `"` and no `\`, so it fits a quoted challenge. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** Schema 2026-07-28 `Icon.sizes`: `WxH` or `any`. */
const ICON_SIZE = /^(?:[1-9][0-9]{0,4}x[1-9][0-9]{0,4}|any)$/;
/** Schema 2026-07-28 `MetaObject`: an optional `label.label/` prefix, then a name. */
const META_KEY =
  /^(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

function scopeProblems(scopes: unknown): string[] {
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes) || scopes.length === 0) return ['scopes must be a non-empty array of OAuth scope names.'];
  return scopes
    .filter((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope))
    .map(
      (scope) =>
        `scope ${JSON.stringify(scope)} is not an OAuth scope token (printable ASCII without spaces, quotes or backslashes, RFC 6749 section 3.3).`,
    );
}

function iconSourceProblem(src: unknown): string | undefined {
  if (typeof src !== 'string' || !URL.canParse(src)) return 'an icon needs a src URL.';
  const url = new URL(src);
  if (url.protocol === 'https:' || url.protocol === 'http:') return undefined;
  if (url.protocol === 'data:' && /^data:image\/[a-z0-9.+-]+(;[^,]*)?,/i.test(src)) return undefined;
  return `icon src ${JSON.stringify(src.slice(0, 40))} must be an https: (or http:) URL or a data:image/… URI.`;
}

function iconProblems(icons: unknown): string[] {
  if (icons === undefined) return [];
  if (!Array.isArray(icons)) return ['icons must be an array of { src, mimeType?, sizes?, theme? }.'];
  const problems: string[] = [];
  for (const icon of icons) {
    if (!isRecord(icon)) {
      problems.push('each icon is an object { src, mimeType?, sizes?, theme? }.');
      continue;
    }
    const source = iconSourceProblem(icon.src);
    if (source) problems.push(source);
    if (icon.mimeType !== undefined && (typeof icon.mimeType !== 'string' || !icon.mimeType.includes('/'))) {
      problems.push('icon mimeType must be a MIME type such as image/png.');
    }
    if (
      icon.sizes !== undefined &&
      (!Array.isArray(icon.sizes) || !icon.sizes.every((size) => typeof size === 'string' && ICON_SIZE.test(size)))
    ) {
      problems.push('icon sizes are strings such as "48x48" or "any".');
    }
    if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark') {
      problems.push('icon theme is "light" or "dark".');
    }
  }
  return problems;
}

function metaProblems(meta: unknown): string[] {
  if (meta === undefined) return [];
  if (!isRecord(meta)) return ['_meta must be a plain object.'];
  const problems = Object.keys(meta)
    .filter((key) => !META_KEY.test(key))
    .map(
      (key) =>
        `_meta key ${JSON.stringify(key)} is not valid: use "name" or "prefix/name" with a reverse-DNS prefix (com.example/name).`,
    );
  if (!isJsonFaithful(meta)) problems.push('_meta must hold plain JSON values only.');
  return problems;
}

/** Every problem of one entry's catalogue fields, each starting with its label. */
export function catalogueFieldProblems(label: string, fields: CatalogueFields): string[] {
  return [...scopeProblems(fields.scopes), ...iconProblems(fields.icons), ...metaProblems(fields._meta)].map(
    (problem) => `${label}: ${problem}`,
  );
}

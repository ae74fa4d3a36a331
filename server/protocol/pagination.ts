/**
 * Self-contained cursors: the offset plus a digest of the list they page through, so any instance
 * can continue a listing and a cursor from an older list is refused instead of skipping items
 * (spec, server/utilities/pagination: an invalid cursor is -32602).
 */
import { createHash } from 'node:crypto';
import { invalidParams } from './protocol-error.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

function listDigest(names: string[]): string {
  return createHash('sha256').update(names.join('\u0000')).digest('base64url').slice(0, 10);
}

export function paginate<T>(all: T[], nameOf: (item: T) => string, cursor: unknown, pageSize: number): Page<T> {
  const digest = listDigest(all.map(nameOf));
  let offset = 0;
  if (cursor !== undefined) {
    if (typeof cursor !== 'string') throw invalidParams('Invalid params: cursor must be a string');
    const match = /^([0-9]{1,9})\.([A-Za-z0-9_-]{10})$/.exec(Buffer.from(cursor, 'base64url').toString());
    if (!match || match[2] !== digest || Number(match[1]) > all.length) {
      throw invalidParams('Invalid params: invalid or expired cursor');
    }
    offset = Number(match[1]);
  }
  const items = all.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return next < all.length ? { items, nextCursor: Buffer.from(`${next}.${digest}`).toString('base64url') } : { items };
}

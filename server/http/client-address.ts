/**
 * The key a client is counted under for per-client limits (sockets, body bytes in flight, and the
 * single-use quota of anonymous callers). IPv4 addresses count one by one; IPv6 addresses by their
 * /64, since one host is usually given a whole /64 and could otherwise rotate through it.
 */
let lastAddress: string | undefined;
let lastKey = '';

/** Requests come in runs from one address (a client's keep-alive socket): its key is kept. */
export function clientKey(address: string | undefined): string {
  if (address !== lastAddress || !address) {
    lastAddress = address;
    lastKey = keyOf(address);
  }
  return lastKey;
}

function keyOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

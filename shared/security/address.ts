import { isIP } from 'node:net';

/**
 * Whom a per-address rule counts (the tracking API's visitor limit and fair share, the login slow-down, the OAuth
 * registrations, the connection cap): one IPv4 address, or one IPv6 /64 — a subscriber usually holds a whole /64, so
 * counting single IPv6 addresses would give one machine 2^64 fresh budgets.
 */

/** The /64 network of an IPv6 address, or the IPv4 address itself (also when IPv4-mapped); undefined for non-IPs. */
export function addressKey(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] && isIP(mapped[1]) === 4) return mapped[1];
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return undefined;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]?.split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::')
    ? [...left, ...Array.from({ length: 8 - left.length - right.length }, () => '0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** A request as far as its sender goes: Express's `req.ip` (after `trust proxy`) and the socket's own address. */
export interface SenderOf {
  ip?: string | undefined;
  socket: { remoteAddress?: string | undefined };
}

/**
 * Whom to count for a request: `req.ip` (which Express takes from X-Forwarded-For only as far as `trust proxy`
 * allows) when it is a valid IP address, else the socket's own address. Arbitrary strings in a forwarded header never
 * become keys.
 */
export function senderKey(req: SenderOf): string {
  return addressKey(req.ip ?? '') ?? addressKey(req.socket.remoteAddress ?? '') ?? 'unknown';
}

import ipaddr from 'ipaddr.js';

/** IPv6 global unicast (RFC 4291 §2.4): everything outside it is special-use or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an IP address is one the server may fetch from on a stranger's behalf (draft-ietf-oauth-client-id-metadata-
 * document §6.5: never a special-use address of RFC 6890). Only ordinary unicast passes: not loopback, private
 * (RFC 1918), carrier-grade NAT (RFC 6598), link-local (the cloud metadata address 169.254.169.254 among them),
 * unique-local (fc00::/7), multicast, documentation, benchmarking, reserved, NAT64 (64:ff9b::/96), 6to4 or Teredo
 * (which carry an IPv4 address of any kind inside), nor anything outside IPv6's global unicast 2000::/3. An
 * IPv4-mapped or IPv4-compatible IPv6 address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries. Not an
 * IP address → false.
 *
 * The ranges are ipaddr.js's (its `range()` names every special-purpose block of the IANA registries); the rule
 * "only `unicast`, and IPv6 only inside 2000::/3" is ours.
 *
 * @example isPublicAddress('93.184.215.14') // true
 * @example isPublicAddress('::ffff:169.254.169.254') // false
 */
export function isPublicAddress(address: string): boolean {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.process(text);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP, isIPv4, isIPv6, LookupFunction } from 'node:net';
import { DomainError } from '../../platform/domain/domain-error';

export class WebhookUrlRejectedError extends DomainError {
  readonly code = 'WEBHOOK_URL_REJECTED';
  readonly kind = 'invalid';
  constructor(reason: string) {
    super(`Webhook URL rejected: ${reason}`, [{ field: 'url', message: reason }]);
  }
}

const PRIVATE_NAME_SUFFIXES = ['.localhost', '.local', '.internal'];

/**
 * Validates a webhook target at registration and again before each send. Names are only checked
 * against reserved suffixes here; what they resolve to is checked at connect time by guardedLookup.
 */
export function parseWebhookUrl(url: string, allowPrivateNetworks: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlRejectedError('not a valid absolute URL');
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && allowPrivateNetworks)) {
    throw new WebhookUrlRejectedError(allowPrivateNetworks ? 'the scheme must be https or http' : 'the scheme must be https');
  }
  if (parsed.username || parsed.password) throw new WebhookUrlRejectedError('credentials in the URL are not allowed');
  if (allowPrivateNetworks) return parsed;

  // WHATWG URL lower-cases the host and already rewrites IPv4 shorthands (127.1, 2130706433,
  // 0x7f000001, 0177.0.0.1) to dotted quads for http(s); legacyIPv4ToDotted covers a parser that would not.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const ip = isIP(host) ? host : legacyIPv4ToDotted(host);
  if (ip !== undefined) {
    if (!isPublicAddress(ip)) throw new WebhookUrlRejectedError(`${ip} is not a public address`);
  } else if (host === 'localhost' || PRIVATE_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    throw new WebhookUrlRejectedError(`${host} is a local name`);
  }
  return parsed;
}

/** inet_aton forms: 1 to 4 parts, each decimal, 0x-hex or 0-octal; undefined when not such a form. */
export function legacyIPv4ToDotted(host: string): string | undefined {
  const parts = host.split('.');
  if (parts.length > 4 || !parts.every((part) => /^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i.test(part))) return undefined;
  const numbers = parts.map((part) => (/^0x/i.test(part) ? parseInt(part.slice(2) || '0', 16) : /^0./.test(part) ? parseInt(part, 8) : Number(part)));
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return undefined;
  const value = numbers.reduce((sum, n, index) => sum + n * 256 ** (3 - index), 0) + last;
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

// [network, prefix length] of IPv4 ranges that are not public unicast (RFC 6890 and friends).
const IPV4_REFUSED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes 255.255.255.255
];
const IPV4_REFUSED_RANGES = IPV4_REFUSED.map(([network, bits]) => ({ base: ipv4ToNumber(network), size: 2 ** (32 - bits) }));

/** True only for a public unicast IPv4 or IPv6 address; false for anything else, including non-IPs. */
export function isPublicAddress(ip: string): boolean {
  const address = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''); // brackets, IPv6 zone id
  if (isIPv4(address)) {
    const value = ipv4ToNumber(address);
    return !IPV4_REFUSED_RANGES.some(({ base, size }) => value >= base && value < base + size);
  }
  if (!isIPv6(address)) return false;
  const groups = ipv6Groups(address);
  const embeddedIPv4 = () => `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  const startsWith = (...prefix: number[]) => prefix.every((group, index) => groups[index] === group);
  if (startsWith(0, 0, 0, 0, 0, 0xffff)) return isPublicAddress(embeddedIPv4()); // ::ffff:0:0/96 IPv4-mapped
  if (startsWith(0x64, 0xff9b, 0, 0, 0, 0)) return isPublicAddress(embeddedIPv4()); // 64:ff9b::/96 NAT64
  if (startsWith(0x2002)) return isPublicAddress(`${groups[1] >> 8}.${groups[1] & 255}.${groups[2] >> 8}.${groups[2] & 255}`); // 6to4
  // Only global unicast 2000::/3 is public. That leaves out ::, ::1, ::/96 IPv4-compatible, 100::/64
  // discard, 64:ff9b:1::/48 local NAT64, fc00::/7 unique-local, fe80::/10 link-local, ff00::/8 multicast.
  if ((groups[0] & 0xe000) !== 0x2000) return false;
  if (groups[0] === 0x2001 && groups[1] < 0x200) return false; // 2001::/23 IETF special purpose, incl. Teredo 2001::/32
  if (groups[0] === 0x2001 && groups[1] === 0x0db8) return false; // documentation
  if (groups[0] === 0x3fff && groups[1] < 0x1000) return false; // 3fff::/20 documentation (RFC 9637)
  return true;
}

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad counts as two). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToNumber(dotted[1]);
    text = text.slice(0, dotted.index) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const headGroups = parse(head);
  const tailGroups = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeros, ...tailGroups];
}

export interface SsrfError extends NodeJS.ErrnoException {
  code: 'ERR_WEBHOOK_SSRF';
}

/**
 * A dns.lookup replacement for undici's `connect: { lookup }`: resolves every address of the name and
 * refuses the connection if any of them is not public, so a DNS answer cannot point a delivery at an
 * internal service. The socket connects to the checked address, which also defeats DNS rebinding.
 * Note: net.connect skips lookup for IP literals, so those must be checked with parseWebhookUrl.
 */
export function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = typeof options === 'number' ? { family: options } : (options ?? {});
    dnsLookup(hostname, { ...wanted, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      const refused = allowPrivateNetworks ? undefined : addresses.find(({ address }) => !isPublicAddress(address));
      if (refused) {
        const ssrf = new Error(`${hostname} resolves to ${refused.address}, which is not a public address`) as SsrfError;
        ssrf.code = 'ERR_WEBHOOK_SSRF';
        return callback(ssrf, []);
      }
      if (wanted.all) return callback(null, addresses);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

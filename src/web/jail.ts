/**
 * The URL jail: which URLs and which IP addresses `web_fetch` may reach. Pure functions, no I/O; the
 * resolving and dialing half lives in `dial.ts`.
 *
 * Rule: an address is public only if it is global unicast and in no special-purpose block. For IPv4
 * the blocks are the IANA IPv4 Special-Purpose Address Registry (RFC 6890) entries that are not
 * globally reachable, plus multicast and 240/4. For IPv6 only 2000::/3 (RFC 4291 global unicast) can
 * be public, minus the IANA IPv6 Special-Purpose Address Registry blocks in it; three prefixes outside
 * it carry an IPv4 address (IPv4-mapped, NAT64 64:ff9b::/96) and are judged by that address. We do not
 * use ipaddr.js's `range()` verdicts, because it calls several non-public IPv6 blocks `unicast`
 * (4000::/3, ::/96, 64:ff9b:1::/48, fec0::/10 before 2.4): ipaddr.js only parses and matches here.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { WebError } from './types';

/** Verdict on one IP address. `reason` is a short phrase for the model, e.g. "loopback". */
export type AddressVerdict = { public: true } | { public: false; reason: string };

/** Said after every refusal, so the model neither retries the URL nor gives up on a local server. */
export const REFUSAL_ADVICE =
  'web_fetch only reaches public addresses. For a local dev server use bash with curl, which the person can approve.';

type Block = readonly [cidr: string, reason: string];

/** Cloud metadata endpoints, listed before the block that contains them so the reason names them. */
const V4_METADATA: readonly Block[] = [
  ['169.254.169.254/32', 'link-local, cloud metadata address (AWS, GCP, Azure, OpenStack)'],
  ['169.254.170.2/32', 'link-local, cloud metadata address (AWS ECS task credentials)'],
  ['100.100.100.200/32', 'carrier-grade NAT, cloud metadata address (Alibaba Cloud)'],
  ['192.0.0.192/32', 'IETF protocol assignment, cloud metadata address (Oracle Cloud, legacy)'],
  // Azure's WireServer: a public-looking address that only answers from inside an Azure VM.
  ['168.63.129.16/32', 'cloud platform address (Azure WireServer)'],
];

/** IANA IPv4 special-purpose blocks that are not globally reachable (RFC 6890 and updates). */
const V4_BLOCKS: readonly Block[] = [
  ...V4_METADATA,
  ['0.0.0.0/8', '"this network" (0.0.0.0/8)'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignment (RFC 6890)'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.88.99.0/24', '6to4 relay anycast (deprecated, RFC 7526)'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking (RFC 2544)'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved (240.0.0.0/4)'],
];

/** IPv6 blocks judged before the 2000::/3 test (all outside it except where noted). */
const V6_BLOCKS: readonly Block[] = [
  ['::/128', 'unspecified address (::)'],
  ['::1/128', 'loopback'],
  ['fd00:ec2::254/128', 'unique-local, cloud metadata address (AWS IMDS over IPv6)'],
  ['64:ff9b:1::/48', 'NAT64 local-use prefix (RFC 8215)'],
  ['::ffff:0:0:0/96', 'IPv4-translated address (RFC 6145)'],
  ['100::/64', 'discard-only (RFC 6666)'],
  ['fc00::/7', 'unique-local (fc00::/7)'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated, RFC 3879)'],
  ['ff00::/8', 'multicast'],
  // Inside 2000::/3:
  ['2001::/32', 'Teredo tunnel (RFC 4380)'],
  ['2001:2::/48', 'benchmarking (RFC 5180)'],
  ['2001:10::/28', 'ORCHID (deprecated, RFC 4843)'],
  // The rest of the IETF protocol-assignment block holds anycast services, never a web page.
  ['2001::/23', 'IETF protocol assignment (2001::/23)'],
  ['2001:db8::/32', 'documentation (RFC 3849)'],
  ['3fff::/20', 'documentation (RFC 9637)'],
];

function parseBlocks(blocks: readonly Block[]): Array<[ipaddr.IPv4 | ipaddr.IPv6, number, string]> {
  return blocks.map(([cidr, reason]) => {
    const [addr, bits] = ipaddr.parseCIDR(cidr);
    return [addr, bits, reason];
  });
}

// Constant tables, built once (read-only data, not mutable state).
const V4 = parseBlocks(V4_BLOCKS);
const V6 = parseBlocks(V6_BLOCKS);
const V4_MAPPED = ipaddr.parseCIDR('::ffff:0:0/96');
const V4_COMPAT = ipaddr.parseCIDR('::/96');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

function classifyV4(addr: ipaddr.IPv4): AddressVerdict {
  for (const [net, bits, reason] of V4) if (addr.match(net, bits)) return { public: false, reason };
  return { public: true };
}

/** The IPv4 address in the low 32 bits of an IPv6 address (or in bits 16–47 for 6to4). */
function embeddedV4(parts: number[], hiIndex: number): ipaddr.IPv4 {
  const hi = parts[hiIndex];
  const lo = parts[hiIndex + 1];
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** Judge an embedded IPv4: public passes, anything else is refused with `label` in front. */
function viaEmbedded(label: string, v4: ipaddr.IPv4): AddressVerdict {
  const inner = classifyV4(v4);
  return inner.public ? inner : { public: false, reason: `${label} ${v4.toString()}: ${inner.reason}` };
}

function classifyV6(addr: ipaddr.IPv6): AddressVerdict {
  const p = addr.parts;
  if (addr.match(V4_MAPPED)) return viaEmbedded('IPv4-mapped', embeddedV4(p, 6));
  if (addr.match(NAT64)) return viaEmbedded('NAT64 (RFC 6052) of', embeddedV4(p, 6));
  for (const [net, bits, reason] of V6) if (addr.match(net, bits)) return { public: false, reason };
  if (addr.match(V4_COMPAT)) {
    // Deprecated (RFC 4291 §2.5.5.1) and outside 2000::/3: refused whatever it embeds.
    return {
      public: false,
      reason: `IPv4-compatible address of ${embeddedV4(p, 6).toString()} (deprecated)`,
    };
  }
  if (!addr.match(GLOBAL_UNICAST)) return { public: false, reason: 'not global unicast (outside 2000::/3)' };
  if (addr.match(SIX_TO_FOUR)) return viaEmbedded('6to4 (RFC 3056) of', embeddedV4(p, 1));
  return { public: true };
}

/**
 * Classify one IP address as public (reachable by `web_fetch`) or not, with the reason.
 * Accepts what `net.isIP` accepts (strict dotted quad, IPv6 with an optional zone id); anything
 * else is not public ("not an IP address"), so a resolver answer in an odd form fails closed.
 */
export function classifyAddress(ip: string): AddressVerdict {
  if (isIP(ip) === 0) return { public: false, reason: 'not an IP address' };
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return { public: false, reason: 'not an IP address' };
  }
  return addr.kind() === 'ipv4' ? classifyV4(addr as ipaddr.IPv4) : classifyV6(addr as ipaddr.IPv6);
}

/**
 * Cloud metadata host names, refused by name whatever DNS says (a resolver inside the cloud answers
 * them with the metadata address; one outside may not, and the next hop may be inside).
 */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

/** A host as the jail sees it: IPv6 brackets stripped, lowercase, IDN already punycode. */
export interface CheckedHost {
  /** As `new URL()` gives it, without IPv6 brackets; what the resolver is asked. */
  host: string;
  /** True when `host` is an IP address (checked directly; the resolver is never asked). */
  literal: boolean;
}

/** Host with IPv6 brackets stripped: `[::1]` → `::1`. */
export function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** An IPv4 number as WHATWG URL parsing reads one: decimal, octal or `0x` hex. */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/i;

/**
 * A host whose labels are all numbers but that URL parsing did not take for an IPv4 address
 * (`127.0.0.1..`, `0x7f.1..`): resolvers disagree about such names (some read them as the address),
 * so none is asked.
 */
function looksNumeric(host: string): boolean {
  const labels = host.split('.').filter((l) => l !== '');
  return labels.length > 0 && labels.every((l) => NUMERIC_LABEL.test(l));
}

/**
 * Check a host before any DNS: an IP literal is classified, a name is refused when it is a cloud
 * metadata name, `localhost` / `*.localhost` (RFC 6761 §6.3: always loopback), or made of numbers
 * and dots without being an IP address (malformed). Trailing dots are ignored for the name checks
 * (`localhost.` is `localhost`).
 * @throws {@link WebError} kind `refused`, naming the host or address and the reason.
 */
export function checkHost(hostname: string): CheckedHost {
  const host = stripBrackets(hostname.toLowerCase());
  if (isIP(host) !== 0) {
    const v = classifyAddress(host);
    if (!v.public) throw new WebError(`refused: ${host} is ${v.reason}; ${REFUSAL_ADVICE}`, 'refused');
    return { host, literal: true };
  }
  const name = host.replace(/\.+$/, '');
  if (name === '') throw new WebError(`refused: the URL has no host name; ${REFUSAL_ADVICE}`, 'refused');
  if (looksNumeric(host)) {
    throw new WebError(
      `refused: ${host} is a malformed host: it is made of numbers and dots like an IP address but is not one; ` +
        'write the address as four numbers without extra dots, or use the host name.',
      'refused',
    );
  }
  if (METADATA_NAMES.has(name)) {
    throw new WebError(`refused: ${host} is a cloud metadata host name; ${REFUSAL_ADVICE}`, 'refused');
  }
  if (name === 'localhost' || name.endsWith('.localhost')) {
    throw new WebError(`refused: ${host} is a loopback name (RFC 6761); ${REFUSAL_ADVICE}`, 'refused');
  }
  return { host, literal: false };
}

/** A URL that passed {@link checkUrl}; the address check of a name happens at connect time. */
export interface CheckedUrl extends CheckedHost {
  url: URL;
  /** Explicit or default port (80 / 443). */
  port: number;
  tls: boolean;
}

/** Shorten what we echo back, so a huge or odd argument does not flood the error. */
function quote(s: string): string {
  const one = JSON.stringify(s);
  return one.length > 200 ? `${one.slice(0, 197)}…"` : one;
}

/**
 * Parse and check one URL, without DNS: WHATWG parsing (`new URL`, so `0x7f.1`, `127.1`, `%31…`,
 * fullwidth dots, tabs and backslashes are normalised exactly as a client would), scheme `http:` or
 * `https:` only, no user name or password, then {@link checkHost}. A name's addresses are checked
 * where the connection is made (`dial.ts`), so the addresses checked are the ones dialed.
 * @throws {@link WebError} kind `refused` naming the URL, scheme, host or address and the reason.
 */
export function checkUrl(input: string | URL): CheckedUrl {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new WebError(
      `refused: ${quote(String(input))} is not a valid absolute URL; pass a full http:// or https:// URL.`,
      'refused',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebError(
      `refused: ${quote(url.href)} uses the ${url.protocol} scheme; web_fetch only fetches http: and https: URLs.`,
      'refused',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebError(
      `refused: ${quote(url.href)} carries a user name or password before the host ${url.hostname}; ` +
        'web_fetch does not send credentials in URLs. Ask for the URL without the part before "@".',
      'refused',
    );
  }
  const host = checkHost(url.hostname);
  const tls = url.protocol === 'https:';
  const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port);
  return { ...host, url, port, tls };
}

import { describe, expect, it } from 'vitest';
import { checkHost, checkUrl, classifyAddress } from '../../src/web/jail';
import { WebError } from '../../src/web/types';

function reasonOf(ip: string): string {
  const v = classifyAddress(ip);
  return v.public ? 'public' : v.reason;
}

function refusal(fn: () => unknown): WebError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WebError);
    return err as WebError;
  }
  throw new Error('expected a refusal');
}

describe('classifyAddress: IPv4', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private (RFC 1918)'],
    ['172.31.255.255', 'private (RFC 1918)'],
    ['192.168.1.1', 'private (RFC 1918)'],
    ['100.64.0.1', 'carrier-grade NAT (RFC 6598)'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'link-local, cloud metadata address (AWS, GCP, Azure, OpenStack)'],
    ['100.100.100.200', 'carrier-grade NAT, cloud metadata address (Alibaba Cloud)'],
    ['168.63.129.16', 'cloud platform address (Azure WireServer)'],
    ['0.0.0.0', '"this network" (0.0.0.0/8)'],
    ['0.1.2.3', '"this network" (0.0.0.0/8)'],
    ['192.0.0.8', 'IETF protocol assignment (RFC 6890)'],
    ['192.0.2.1', 'documentation (TEST-NET-1)'],
    ['198.18.0.1', 'benchmarking (RFC 2544)'],
    ['198.19.255.254', 'benchmarking (RFC 2544)'],
    ['203.0.113.9', 'documentation (TEST-NET-3)'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved (240.0.0.0/4)'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is %s', (ip, reason) => {
    expect(reasonOf(ip)).toBe(reason);
  });

  it.each([
    '93.184.215.14',
    '1.1.1.1',
    '8.8.8.8',
    '11.0.0.1',
    '100.63.255.254',
    '100.128.0.1',
    '172.32.0.1',
    '198.20.0.1',
  ])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toEqual({ public: true });
  });

  it('refuses what is not a strict IP address (a resolver answering "0x7f.1" or a name fails closed)', () => {
    expect(reasonOf('0x7f.1')).toBe('not an IP address');
    expect(reasonOf('127.000.000.001')).toBe('not an IP address');
    expect(reasonOf('example.com')).toBe('not an IP address');
    expect(reasonOf('')).toBe('not an IP address');
  });
});

describe('classifyAddress: IPv6 (ipaddr.js range() says "unicast" for several of these)', () => {
  it.each([
    ['::', 'unspecified address (::)'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'site-local (deprecated, RFC 3879)'],
    ['fc00::1', 'unique-local (fc00::/7)'],
    ['fd12:3456:789a::1', 'unique-local (fc00::/7)'],
    ['fd00:ec2::254', 'unique-local, cloud metadata address (AWS IMDS over IPv6)'],
    ['ff05::1:3', 'multicast'],
    ['4000::1', 'not global unicast (outside 2000::/3)'],
    ['100::1', 'discard-only (RFC 6666)'],
    ['2001:db8::1', 'documentation (RFC 3849)'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['2001:10::1', 'ORCHID (deprecated, RFC 4843)'],
    ['2001:2::1', 'benchmarking (RFC 5180)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo tunnel (RFC 4380)'],
    ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix (RFC 8215)'],
    ['::ffff:0:7f00:1', 'IPv4-translated address (RFC 6145)'],
  ])('%s is %s', (ip, reason) => {
    expect(reasonOf(ip)).toBe(reason);
  });

  it('judges IPv4-mapped addresses by the IPv4 inside, in both spellings', () => {
    expect(reasonOf('::ffff:127.0.0.1')).toBe('IPv4-mapped 127.0.0.1: loopback');
    // new URL() rewrites [::ffff:127.0.0.1] as [::ffff:7f00:1]: same verdict.
    expect(reasonOf('::ffff:7f00:1')).toBe('IPv4-mapped 127.0.0.1: loopback');
    expect(reasonOf('0:0:0:0:0:ffff:a9fe:a9fe')).toBe(
      'IPv4-mapped 169.254.169.254: link-local, cloud metadata address (AWS, GCP, Azure, OpenStack)',
    );
    expect(classifyAddress('::ffff:93.184.215.14')).toEqual({ public: true });
  });

  it('refuses IPv4-compatible addresses (::/96, deprecated) whatever they embed', () => {
    expect(reasonOf('::7f00:1')).toBe('IPv4-compatible address of 127.0.0.1 (deprecated)');
    expect(reasonOf('::a9fe:a9fe')).toBe('IPv4-compatible address of 169.254.169.254 (deprecated)');
    expect(reasonOf('::5db8:d70e')).toBe('IPv4-compatible address of 93.184.215.14 (deprecated)');
  });

  it('judges NAT64 64:ff9b::/96 and 6to4 2002::/16 by the IPv4 inside', () => {
    expect(reasonOf('64:ff9b::a00:1')).toBe('NAT64 (RFC 6052) of 10.0.0.1: private (RFC 1918)');
    expect(classifyAddress('64:ff9b::5db8:d70e')).toEqual({ public: true });
    expect(reasonOf('2002:c0a8:101::1')).toBe('6to4 (RFC 3056) of 192.168.1.1: private (RFC 1918)');
    expect(reasonOf('2002:7f00:1::')).toBe('6to4 (RFC 3056) of 127.0.0.1: loopback');
    expect(classifyAddress('2002:5db8:d70e::1')).toEqual({ public: true });
  });

  it.each(['2606:4700::6810:85e5', '2001:4860:4860::8888', '2a00:1450:4001::200e'])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toEqual({ public: true });
  });
});

describe('checkUrl', () => {
  it('returns the parsed URL, host without brackets, port and TLS', () => {
    const c = checkUrl('https://[2606:4700::6810:85e5]:8443/x?y#z');
    expect(c).toMatchObject({ host: '2606:4700::6810:85e5', literal: true, port: 8443, tls: true });
    expect(checkUrl('http://Docs.Example.COM/a')).toMatchObject({
      host: 'docs.example.com',
      literal: false,
      port: 80,
    });
    expect(checkUrl('https://bücher.example/').host).toBe('xn--bcher-kva.example');
  });

  it('checks a bracketed, rewritten IPv4-mapped literal and names the IPv4 inside', () => {
    const err = refusal(() => checkUrl('http://[::ffff:127.0.0.1]/'));
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('::ffff:7f00:1 is IPv4-mapped 127.0.0.1: loopback');
    expect(err.message).toContain('use bash with curl');
  });

  it('refuses the WHATWG spellings of loopback as 127.0.0.1', () => {
    for (const u of [
      'http://0x7f.1/',
      'http://017700000001/',
      'http://127.1/',
      'http://%31%32%37.0.0.1/',
      'http://127\uff0e0\uff0e0\uff0e1/',
    ]) {
      expect(refusal(() => checkUrl(u)).message).toMatch(/^refused: 127\.0\.0\.1 is loopback;/);
    }
  });

  it('refuses other schemes, credentials and invalid URLs, saying which', () => {
    expect(refusal(() => checkUrl('file:///etc/passwd')).message).toContain('uses the file: scheme');
    expect(refusal(() => checkUrl('ws://www.example.org/')).message).toContain('uses the ws: scheme');
    expect(refusal(() => checkUrl('http://a@b@127.0.0.1/')).message).toContain(
      'user name or password before the host 127.0.0.1',
    );
    expect(refusal(() => checkUrl('http//www.example.org/')).message).toContain(
      'is not a valid absolute URL',
    );
    expect(refusal(() => checkUrl('http://[fe80::1%25eth0]/')).message).toContain(
      'is not a valid absolute URL',
    );
  });

  it('refuses metadata and localhost names whatever DNS would say, trailing dots included', () => {
    expect(refusal(() => checkUrl('http://metadata.google.internal./x')).message).toContain(
      'metadata.google.internal. is a cloud metadata host name',
    );
    expect(refusal(() => checkHost('METADATA')).message).toContain('cloud metadata host name');
    expect(refusal(() => checkUrl('http://api.localhost/')).message).toContain(
      'api.localhost is a loopback name',
    );
    expect(refusal(() => checkUrl('http://localhost./')).message).toContain('localhost. is a loopback name');
    // A public name that merely looks like one passes to the address check.
    expect(checkUrl('https://metadata.example.com/latest/').literal).toBe(false);
    expect(checkUrl('https://notlocalhost.example/').literal).toBe(false);
  });
});

describe('checkUrl: hosts of numbers and dots that are not IP addresses', () => {
  it('refuses 127.0.0.1.. and its kind as malformed, before any DNS', () => {
    for (const url of ['http://127.0.0.1../', 'http://10.0.0.1.../x', 'http://0x7f.1../', 'http://123../']) {
      const err = refusal(() => checkUrl(url));
      expect(err.kind).toBe('refused');
      expect(err.message).toBe(
        `refused: ${new URL(url).hostname} is a malformed host: it is made of numbers and dots like an IP address ` +
          'but is not one; write the address as four numbers without extra dots, or use the host name.',
      );
    }
  });

  it('still takes names with digits, and IP addresses with one trailing dot', () => {
    expect(checkUrl('http://1e3.example/').host).toBe('1e3.example');
    expect(checkUrl('http://7f000001.nip.io/').host).toBe('7f000001.nip.io');
    expect(checkUrl('http://8.8.8.8./').host).toBe('8.8.8.8');
    expect(refusal(() => checkUrl('http://127.0.0.1./')).message).toContain('127.0.0.1 is loopback');
  });
});

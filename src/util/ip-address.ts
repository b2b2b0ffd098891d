/**
 * Which addresses lie inside the runner rather than out on the internet: loopback, link-local (cloud metadata at
 * 169.254.169.254 among them), private networks, carrier-grade NAT, unspecified, multicast and reserved — in IPv4,
 * in IPv6, and in the IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`,
 * NAT64 `64:ff9b::/96`). The forward proxy refuses to connect an allowed host name to any of them (a name the
 * agent's DNS points inwards), unless `allowed-hosts` names the address itself. Input is what a resolver returns
 * or an IP literal; anything that does not parse as an address is treated as inward (refused). Pure.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type InwardKind =
  | 'loopback'
  | 'link-local'
  | 'private'
  | 'shared (carrier-grade NAT)'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'not an address';

/** `[a, b, c, d]` of a dotted-quad IPv4 address, or undefined. */
function v4Bytes(s: string): number[] | undefined {
  if (!isIPv4(s)) return undefined;
  return s.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (zone id dropped), or undefined. */
function v6Bytes(raw: string): number[] | undefined {
  const s = raw.replace(/%.*$/, '');
  if (!isIPv6(s)) return undefined;
  let text = s.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    tail.push(...(v4Bytes(dotted[1]) ?? []));
    text = `${text.slice(0, -dotted[1].length)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const missing = 8 - left.length - right.length;
  const all = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right];
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes.length === 16 ? bytes : undefined;
}

function v4Kind([a = 0, b = 0]: number[]): InwardKind | undefined {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'shared (carrier-grade NAT)';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return undefined;
}

const startsWith = (bytes: number[], prefix: number[]): boolean => prefix.every((p, i) => bytes[i] === p);

function v6Kind(b: number[]): InwardKind | undefined {
  const zeros = (n: number): number[] => Array<number>(n).fill(0);
  if (b.every((x) => x === 0)) return 'unspecified';
  if (startsWith(b, [...zeros(15), 1])) return 'loopback';
  // An IPv4 address in IPv6 clothing is what it carries: mapped, compatible (deprecated), NAT64.
  if (startsWith(b, [...zeros(10), 0xff, 0xff]) || startsWith(b, zeros(12)))
    return v4Kind(b.slice(12)) ?? undefined;
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)])) return v4Kind(b.slice(12));
  const [x = 0, y = 0] = b;
  if (x === 0xfe && (y & 0xc0) === 0x80) return 'link-local';
  // fc00::/7 unique local; fec0::/10 the old site-local.
  if ((x & 0xfe) === 0xfc || (x === 0xfe && (y & 0xc0) === 0xc0)) return 'private';
  if (x === 0xff) return 'multicast';
  return undefined;
}

/**
 * Why `address` is not out on the internet, or undefined when it is. Forms no resolver returns (`0177.0.0.1`,
 * `2130706433`, `127.1`) are not parsed here: they are 'not an address' and refused; the proxy resolves names
 * (and such literals) to canonical addresses first.
 */
export function inwardKind(address: string): InwardKind | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const v4 = v4Bytes(bare);
  if (v4) return v4Kind(v4);
  const v6 = v6Bytes(bare);
  if (v6) return v6Kind(v6);
  return 'not an address';
}

/**
 * One spelling per address, for comparing a resolved address with an `allowed-hosts` entry: dotted-quad IPv4
 * (also for an IPv6-mapped IPv4), lower-case IPv6 in its shortest form. Undefined when it is no IP literal.
 */
export function canonicalAddress(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  const b = v6Bytes(bare);
  if (!b) return undefined;
  if (startsWith(b, [...Array<number>(10).fill(0), 0xff, 0xff])) return b.slice(12).join('.');
  // The WHATWG URL parser prints the shortest form (RFC 5952).
  return new URL(`http://[${bare}]/`).hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Pure pieces of the model proxy's credential handling: recognising the run's placeholder wherever the Gemini
 * SDKs put a credential, building the upstream request headers, and keeping real secrets out of what goes back
 * to the agent.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1) plus the non-standard ones proxies and old clients still send. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Comparing digests keeps the time independent of where, or whether lengths, differ. */
export function sameSecret(a: string, b: string): boolean {
  const d = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(d(a), d(b));
}

/** Every value the agent presented as a credential: `x-goog-api-key`, `?key=`, or `Authorization: Bearer`. */
export function presentedCredentials(headers: IncomingHttpHeaders, search: string): string[] {
  const out: string[] = [];
  const apiKey = headers['x-goog-api-key'];
  if (typeof apiKey === 'string') out.push(apiKey.trim());
  out.push(...new URLSearchParams(search).getAll('key'));
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (bearer?.[1]) out.push(bearer[1]);
  return out;
}

/** True when any presented value is the placeholder; every value is compared, so timing says nothing. */
export function carriesPlaceholder(presented: readonly string[], placeholder: string): boolean {
  let ok = false;
  for (const value of presented) ok = sameSecret(value, placeholder) || ok;
  return ok;
}

function connectionTokens(value: string | string[] | undefined): Set<string> {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    joined
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
}

function isHopByHop(name: string, named: Set<string>): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith('proxy-') || named.has(name);
}

/**
 * The headers sent upstream: the agent's own minus hop-by-hop ones, minus every credential carrier (and any
 * header that still holds the placeholder), with `host` fixed and the real credential header added.
 */
export function upstreamHeaders(
  incoming: IncomingHttpHeaders,
  o: { host: string; placeholder: string; credential: [name: string, value: string] },
): OutgoingHttpHeaders {
  const named = connectionTokens(incoming.connection);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || isHopByHop(name, named)) continue;
    // `expect: 100-continue` would make the upstream wait for a go-ahead this proxy never relays.
    if (name === 'host' || name === 'x-goog-api-key' || name === 'authorization' || name === 'expect')
      continue;
    if ([value].flat().some((v) => v.includes(o.placeholder))) continue;
    out[name] = value;
  }
  out.host = o.host;
  out[o.credential[0]] = o.credential[1];
  return out;
}

/** Response headers as a flat raw list (case and duplicates kept), minus hop-by-hop ones and any secret. */
export function downstreamHeaders(raw: readonly string[], secrets: SecretSet): string[] {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const t of connectionTokens(raw[i + 1])) named.add(t);
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    if (isHopByHop(name.toLowerCase(), named) || secrets.foundIn(value)) continue;
    out.push(name, value);
  }
  return out;
}

/** The real credentials this proxy has used, to keep them out of anything sent back to the agent. */
export class SecretSet {
  private readonly values: string[] = [];

  add(secret: string): void {
    // Very short strings would redact ordinary text; real keys and tokens are tens of characters.
    if (secret.length < 8 || this.values.includes(secret)) return;
    this.values.push(secret);
    // Bearer tokens rotate; the few most recent are all that can still be in flight.
    if (this.values.length > 8) this.values.shift();
  }

  foundIn(text: string | Buffer): boolean {
    return this.values.some((s) => text.includes(s));
  }

  redact(text: string): string {
    return this.values.reduce((t, s) => t.split(s).join('***'), text);
  }
}

/** A Google-API-shaped error body, the form the Gemini CLI parses for every failed call. */
export function googleError(code: number, status: string, message: string): string {
  return JSON.stringify({ error: { code, message, status } });
}

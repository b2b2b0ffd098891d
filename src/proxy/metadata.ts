/**
 * A GCE metadata server stand-in for Vertex AI auth. gemini's google-auth-library finds no credentials file
 * (the agent gets none), so it falls back to the metadata server, which GCE_METADATA_HOST points here: it asks
 * `GET /computeMetadata/v1/instance` (is there one?) and then
 * `GET /computeMetadata/v1/instance/service-accounts/default/token?scopes=...`, both with `Metadata-Flavor:
 * Google`, and wants that header back. The token it gets is the run's placeholder; the model proxy swaps in the
 * real one. Measured on the real gemini 0.42.0: those two calls, then the model calls with `Authorization: Bearer
 * <placeholder>`.
 *
 * Anyone who can open a loopback connection could ask, so answers go only to connections of the agent's uid,
 * read from the kernel's socket table (/proc/net/tcp): the placeholder stays as private as it is in the
 * agent's environment with the other auth kinds.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { endianness } from 'node:os';

export const METADATA_PREFIX = '/computeMetadata/';
const V1 = '/computeMetadata/v1';

/** A token lifetime like the real server's; google-auth-library asks again about 5 minutes before it ends. */
const METADATA_TOKEN_TTL_S = 3599;

export interface MetadataConfig {
  /** The answer to `project/project-id` (gemini takes the project from GOOGLE_CLOUD_PROJECT first). */
  projectId?: string;
  /** Only connections owned by one of these uids are answered; undefined answers any local connection. */
  uids?: number[];
}

export interface MetadataAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function answer(status: number, body: string, type = 'application/text'): MetadataAnswer {
  return {
    status,
    // The client rejects any answer without this header, errors included.
    headers: { 'metadata-flavor': 'Google', 'content-type': type, 'cache-control': 'no-store' },
    body,
  };
}

/**
 * The answer to one metadata request, as the real server would give it for the few paths the auth library
 * uses; everything else is a 404. `pathname` is without the query.
 */
export function metadataAnswer(
  req: { method: string; pathname: string; headers: IncomingHttpHeaders },
  o: { placeholder: string; projectId?: string },
): MetadataAnswer {
  if (req.headers['metadata-flavor'] !== 'Google') {
    return answer(403, 'Missing required header: Metadata-Flavor: Google\n');
  }
  // The real server refuses forwarded requests, so a confused HTTP proxy cannot be made to fetch a token.
  if (req.headers['x-forwarded-for'] !== undefined) return answer(403, 'Forwarded requests are refused\n');
  if (req.method !== 'GET') return answer(405, 'Only GET is served\n');
  const path = req.pathname.replace(/\/+$/, '');
  switch (path) {
    case `${V1}/instance`:
      return answer(200, 'service-accounts/\n');
    case `${V1}/instance/service-accounts`:
      return answer(200, 'default/\n');
    case `${V1}/instance/service-accounts/default/token`:
      return answer(
        200,
        JSON.stringify({
          access_token: o.placeholder,
          expires_in: METADATA_TOKEN_TTL_S,
          token_type: 'Bearer',
        }),
        'application/json',
      );
    case `${V1}/project/project-id`:
      return o.projectId ? answer(200, o.projectId) : answer(404, 'Not found\n');
    case `${V1}/universe/universe-domain`:
      return answer(200, 'googleapis.com');
    default:
      return answer(404, 'Not found\n');
  }
}

function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The uid owning the client end of a loopback TCP connection: the line of /proc/net/tcp whose local port is the
 * client's and whose remote port is ours. Undefined when the table cannot be read (not Linux) or holds no such
 * line (the client is gone).
 */
export async function loopbackPeerUid(
  conn: { remotePort?: number; localPort?: number },
  table = '/proc/net/tcp',
): Promise<number | undefined> {
  if (!conn.remotePort || !conn.localPort) return undefined;
  let text: string;
  try {
    text = await readFile(table, 'utf8');
  } catch {
    return undefined;
  }
  return peerUidIn(text, conn.remotePort, conn.localPort);
}

/** Parses a /proc/net/tcp table for the client socket `clientPort -> serverPort`. Exported for tests. */
export function peerUidIn(table: string, clientPort: number, serverPort: number): number | undefined {
  const local = `:${hexPort(clientPort)}`;
  const remote = `:${hexPort(serverPort)}`;
  for (const line of table.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    if (!f[1]!.endsWith(local) || !f[2]!.endsWith(remote)) continue;
    // Both ends are loopback addresses (0100007F is 127.0.0.1 on little-endian hosts; any 127/8 is local).
    if (!isLoopbackHex(f[1]!) || !isLoopbackHex(f[2]!)) continue;
    const uid = Number(f[7]);
    if (Number.isInteger(uid) && uid >= 0) return uid;
  }
  return undefined;
}

function isLoopbackHex(address: string): boolean {
  const ip = address.split(':')[0] ?? '';
  if (ip.length !== 8) return false;
  // The kernel prints the address in host byte order: 127 is the last byte on little-endian hosts.
  return endianness() === 'LE' ? ip.endsWith('7F') : ip.startsWith('7F');
}

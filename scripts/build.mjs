// Bundles the entry points with ncc into dist/. Deterministic, so CI can diff dist/ against a fresh build.
// ncc type-checks what tsconfig.json includes (src/ only); tests are checked by `npm run typecheck`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sourceHash } from './source-hash.mjs';

const entries = [
  ['src/action/index.ts', 'index.js'],
  ['src/action/post.ts', 'post.js'],
  ['src/cli/main.ts', 'cli.js'],
  ['src/proxy/main.ts', 'proxy.js'],
];
const ncc = join('node_modules', '.bin', 'ncc');
rmSync('dist', { recursive: true, force: true });
for (const [entry, out] of entries) {
  const tmp = mkdtempSync(join(tmpdir(), 'ncc-'));
  execFileSync(ncc, ['build', entry, '-o', tmp, '-q'], { stdio: 'inherit' });
  for (const file of readdirSync(tmp)) {
    cpSync(join(tmp, file), join('dist', file === 'index.js' ? out : file), { recursive: true });
  }
  rmSync(tmp, { recursive: true, force: true });
}
// The licences of everything that can ship: every production dependency, from the lock file's tree. (ncc's own
// --license output is per chunk, and with google-auth-library's lazy chunks each entry's list was overwritten.)
const tree = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { encoding: 'utf8' })
  .split('\n')
  .filter((dir) => dir.includes('node_modules'));
const blocks = new Map();
for (const dir of tree) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (blocks.has(pkg.name)) continue;
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  const text = file ? readFileSync(join(dir, file), 'utf8').trim() : '';
  blocks.set(pkg.name, `${pkg.name}\n${pkg.license ?? 'UNKNOWN'}\n${text}`);
}
writeFileSync(
  join('dist', 'licenses.txt'),
  [...blocks.keys()]
    .sort()
    .map((n) => blocks.get(n))
    .join('\n\n') + '\n',
);
const cli = join('dist', 'cli.js');
const body = readFileSync(cli, 'utf8');
if (!body.startsWith('#!')) writeFileSync(cli, `#!/usr/bin/env node\n${body}`);
chmodSync(cli, 0o755);
writeFileSync(join('dist', 'source-hash.txt'), `${sourceHash('.')}\n`);

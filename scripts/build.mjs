// Bundles the three entry points with ncc into dist/. Deterministic, so CI can diff dist/ against a fresh build.
// ncc type-checks what tsconfig.json includes (src/ only); tests are checked by `npm run typecheck`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

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
  execFileSync(ncc, ['build', entry, '-o', tmp, '--license', 'licenses.txt', '-q'], { stdio: 'inherit' });
  for (const file of readdirSync(tmp)) {
    const target = file === 'index.js' ? out : file === 'licenses.txt' ? 'licenses.txt' : file;
    cpSync(join(tmp, file), join('dist', target), { recursive: true });
  }
  rmSync(tmp, { recursive: true, force: true });
}
const cli = join('dist', 'cli.js');
const body = readFileSync(cli, 'utf8');
if (!body.startsWith('#!')) writeFileSync(cli, `#!/usr/bin/env node\n${body}`);
chmodSync(cli, 0o755);

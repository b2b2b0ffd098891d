// Builds dist/: one type check of src/ (tsc --noEmit), then esbuild bundles the four entry points without checking
// types again (it only transpiles). Deterministic, so CI can diff dist/ against a fresh build.
// `--no-check` skips the type check (the test suite's `npm run typecheck` covers src/ and test/ anyway).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { sourceHash } from './source-hash.mjs';

const entries = {
  index: 'src/action/index.ts',
  post: 'src/action/post.ts',
  cli: 'src/cli/main.ts',
  proxy: 'src/proxy/main.ts',
};

const started = Date.now();
// In parallel with the bundling: the two share nothing, and the check is the longer.
const check = process.argv.includes('--no-check')
  ? Promise.resolve()
  : new Promise((resolve, reject) => {
      const tsc = spawn(join('node_modules', '.bin', 'tsc'), ['--noEmit', '-p', 'tsconfig.json'], {
        stdio: 'inherit',
      });
      tsc.on('error', reject);
      tsc.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error('type check failed (tsc --noEmit -p tsconfig.json)')),
      );
    });

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
await build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  // The action runs on node24 (action.yml); the toolkit CLI supports Node 20 (package.json engines).
  target: 'node20',
  format: 'esm',
  // One file per entry, no code splitting: esbuild's split chunks give a dynamic import() of a CommonJS module
  // only its `default` (gaxios's import of https-proxy-agent, google-auth-library itself), where one bundle wraps
  // it with its named exports. A module only imported dynamically (the Actions cache and artifact clients,
  // google-auth-library) is still evaluated only when a run first uses it.
  // `@actions/*` export only an `import` condition; esbuild's ESM output resolves through it.
  mainFields: ['module', 'main'],
  conditions: ['node', 'import'],
  // CommonJS dependencies call require(), which an ES module lacks; __dirname and __filename are Node's own
  // (20.11+) where a module uses them unbound.
  banner: {
    js: "import { createRequire as __gr_createRequire } from 'node:module';\nconst require = __gr_createRequire(import.meta.url);",
  },
  define: {
    __dirname: 'import.meta.dirname',
    __filename: 'import.meta.filename',
    // The charting library the report's HTML page inlines (src/report/chart-library.ts), as text in the bundle.
    __GEMINI_RUN_CHART_JS__: JSON.stringify(
      readFileSync(
        join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'),
        'utf8',
      ),
    ),
  },
  legalComments: 'none',
  logLevel: 'warning',
  charset: 'utf8',
});
try {
  await check;
} catch (e) {
  console.error(e.message);
  process.exit(1);
}

// The licences of everything that can ship: every production dependency, from the lock file's tree.
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
writeFileSync(join('dist', 'package.json'), '{\n  "type": "module"\n}\n');
const cli = join('dist', 'cli.js');
const body = readFileSync(cli, 'utf8');
if (!body.startsWith('#!')) writeFileSync(cli, `#!/usr/bin/env node\n${body}`);
chmodSync(cli, 0o755);
writeFileSync(join('dist', 'source-hash.txt'), `${sourceHash('.')}\n`);
console.log(`dist/ built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

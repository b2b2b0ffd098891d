/**
 * The runner image and the actions-runner-controller example cannot be built or deployed here; these checks
 * keep them parseable and pinned to the same Gemini CLI version as the code (PINNED_GEMINI_VERSION).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { z } from 'zod';
import { PINNED_GEMINI_VERSION } from '../../src/gemini/install.js';

const root = process.cwd();
const dockerfile = readFileSync(join(root, 'deploy', 'runner', 'Dockerfile'), 'utf8');
const valuesText = readFileSync(join(root, 'deploy', 'arc', 'values.yaml'), 'utf8');

/** Dockerfile instructions with line continuations joined and comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  const joined = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const m = /^([A-Z]+)\s+(.*)$/.exec(l);
      if (!m) throw new Error(`not a Dockerfile instruction: ${l}`);
      return { op: m[1] as string, args: m[2] as string };
    });
}

const envSchema = z.array(z.object({ name: z.string(), value: z.string() }));
const valuesSchema = z.object({
  githubConfigUrl: z.url(),
  githubConfigSecret: z.string().min(1),
  runnerScaleSetName: z.string().regex(/^[a-z0-9-]+$/),
  minRunners: z.number().int().min(0),
  maxRunners: z.number().int().min(1),
  template: z.object({
    spec: z.object({
      containers: z
        .array(
          z.object({
            name: z.literal('runner'),
            image: z.string(),
            command: z.array(z.string()),
            env: envSchema,
          }),
        )
        .min(1),
    }),
  }),
});

describe('deploy/runner/Dockerfile', () => {
  const ins = instructions(dockerfile);
  const args = new Map(
    ins
      .filter((i) => i.op === 'ARG')
      .map((i) => {
        const [k, v] = i.args.split('=');
        return [k, v] as const;
      }),
  );

  it('only uses known instructions', () => {
    const known = new Set(['ARG', 'FROM', 'USER', 'RUN', 'COPY', 'ENV', 'LABEL']);
    for (const i of ins) expect(known.has(i.op), i.op).toBe(true);
  });

  it('builds FROM the official actions runner image, pinned to a version', () => {
    expect(args.get('RUNNER_IMAGE')).toMatch(
      /^ghcr\.io\/actions\/actions-runner:\d+\.\d+\.\d+(@sha256:[0-9a-f]{64})?$/,
    );
    expect(ins.filter((i) => i.op === 'FROM').map((i) => i.args)).toContain('${RUNNER_IMAGE}');
  });

  it('installs tmux and exactly the pinned gemini into a prefix, not globally', () => {
    expect(args.get('GEMINI_CLI_VERSION')).toBe(PINNED_GEMINI_VERSION);
    const runs = ins.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /apt-get install .*\btmux\b/.test(r))).toBe(true);
    const npm = runs.find((r) => r.includes('@google/gemini-cli@'));
    expect(npm).toContain('npm install --prefix "${GEMINI_PREFIX}"');
    expect(npm).toContain('"@google/gemini-cli@${GEMINI_CLI_VERSION}"');
    expect(npm).not.toMatch(/\s-g\b|--global/);
    // proves the version at build time
    expect(npm).toMatch(/--version\)" = "\$\{GEMINI_CLI_VERSION\}"/);
  });

  it('ships the toolkit and points it at the installed gemini', () => {
    expect(ins.some((i) => i.op === 'COPY' && i.args.includes('dist/cli.js'))).toBe(true);
    const env = ins
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toContain(
      'GEMINI_RUN_GEMINI_PATH=/opt/gemini/node_modules/@google/gemini-cli/bundle/gemini.js',
    );
    expect(ins.some((i) => i.op === 'RUN' && i.args.includes('gemini-run setup --gemini'))).toBe(true);
  });

  it('ends as the unprivileged runner user', () => {
    const users = ins.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users[users.length - 1]).toBe('runner');
  });
});

describe('deploy/arc/values.yaml', () => {
  it('parses as YAML without errors and has the scale set shape', () => {
    const doc = parseDocument(valuesText);
    expect(doc.errors).toEqual([]);
    const values = valuesSchema.parse(parse(valuesText));
    expect(values.maxRunners).toBeGreaterThanOrEqual(values.minRunners);
  });

  it('runs the runner image tagged with the pinned gemini version and the same gemini path', () => {
    const values = valuesSchema.parse(parse(valuesText));
    const runner = values.template.spec.containers[0];
    expect(runner?.image).toMatch(new RegExp(`:${PINNED_GEMINI_VERSION.replace(/\./g, '\\.')}$`));
    expect(runner?.command).toEqual(['/home/runner/run.sh']);
    const geminiPath = runner?.env.find((e) => e.name === 'GEMINI_RUN_GEMINI_PATH')?.value;
    expect(dockerfile).toContain(`GEMINI_RUN_GEMINI_PATH=${geminiPath}`);
  });
});

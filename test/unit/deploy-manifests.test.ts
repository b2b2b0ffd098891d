/**
 * The runner image's Dockerfile and the actions-runner-controller values, read as text. The image is built and run
 * by test/image/runner-image.test.ts; here: what must hold of the files themselves. The scale-set chart has no schema
 * for its values, so a misspelled key is silently ignored: every key of deploy/arc/values.yaml is checked against
 * the chart's own defaults at the pinned version (a fixture), and the pod template's keys against the Kubernetes
 * PodSpec fields they must be.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { z } from 'zod';
import { DEFAULT_GEMINI_VERSION } from '../../src/gemini/cli-profile.js';

const root = process.cwd();
const dockerfile = readFileSync(join(root, 'deploy', 'runner', 'Dockerfile'), 'utf8');
const dockerignore = readFileSync(join(root, '.dockerignore'), 'utf8');
const valuesText = readFileSync(join(root, 'deploy', 'arc', 'values.yaml'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

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
            securityContext: z.object({
              runAsUser: z.number(),
              runAsGroup: z.number().optional(),
              runAsNonRoot: z.boolean(),
              allowPrivilegeEscalation: z.boolean().optional(),
              capabilities: z.object({ drop: z.array(z.string()), add: z.array(z.string()) }),
            }),
            volumeMounts: z.array(z.object({ name: z.string(), mountPath: z.string() })).optional(),
          }),
        )
        .min(1),
      volumes: z.array(z.record(z.string(), z.unknown())).optional(),
    }),
  }),
});

describe('deploy/runner/Dockerfile', () => {
  const ins = instructions(dockerfile);
  // The defaults (an ARG repeated after FROM to bring it into scope has none).
  const args = new Map(
    ins
      .filter((i) => i.op === 'ARG' && i.args.includes('='))
      .map((i) => {
        const [k, v] = i.args.split('=');
        return [k, v] as const;
      }),
  );
  const runs = ins.filter((i) => i.op === 'RUN').map((i) => i.args);

  it('only uses instructions the classic builder knows, and no BuildKit-only syntax', () => {
    const known = new Set(['ARG', 'FROM', 'USER', 'RUN', 'COPY', 'ENV', 'LABEL']);
    for (const i of ins) expect(known.has(i.op), i.op).toBe(true);
    expect(dockerfile).not.toMatch(/^# syntax=/m);
    expect(ins.filter((i) => i.op === 'COPY').map((i) => i.args)).not.toContainEqual(
      expect.stringMatching(/--chmod|--link/),
    );
  });

  it('builds FROM the official runner image (a build argument, pinned by default) and nothing else', () => {
    expect(args.get('RUNNER_IMAGE')).toMatch(
      /^ghcr\.io\/actions\/actions-runner:\d+\.\d+\.\d+(@sha256:[0-9a-f]{64})?$/,
    );
    // Node comes from the runner's own externals: no node: image, no second stage.
    expect(ins.filter((i) => i.op === 'FROM').map((i) => i.args)).toEqual(['${RUNNER_IMAGE}']);
    expect(args.get('NODE_DIR')).toBe('/home/runner/externals/node24');
  });

  it('installs tmux, acl and exactly the requested gemini into a root-owned prefix, not globally', () => {
    expect(args.get('GEMINI_CLI_VERSION')).toBe(DEFAULT_GEMINI_VERSION);
    expect(runs.some((r) => /apt-get install .*\btmux\b/.test(r) && /\bacl\b/.test(r))).toBe(true);
    const npm = runs.find((r) => r.includes('@google/gemini-cli@'));
    expect(npm).toContain('npm install --prefix "${GEMINI_PREFIX}"');
    expect(npm).toContain('"@google/gemini-cli@${GEMINI_CLI_VERSION}"');
    expect(npm).not.toMatch(/\s-g\b|--global|chown/);
    expect(npm).toContain('chmod -R go-w "${GEMINI_PREFIX}"');
  });

  it('honours the version argument: setup checks it, and no label hard-codes a version', () => {
    const setup = runs.find((r) => r.includes('gemini-run setup --gemini'));
    expect(setup).toContain('--gemini-version "${GEMINI_CLI_VERSION}"');
    const labels = ins
      .filter((i) => i.op === 'LABEL')
      .map((i) => i.args)
      .join(' ');
    expect(labels).toContain('${GEMINI_CLI_VERSION}');
    expect(labels).not.toMatch(/\d+\.\d+\.\d+/);
  });

  it('ships the whole bundle (with its type-module package.json) as root, and the path the values repeat', () => {
    expect(ins).toContainEqual({ op: 'COPY', args: 'dist/ /opt/gemini-run/' });
    expect(JSON.parse(readFileSync(join(root, 'dist', 'package.json'), 'utf8'))).toEqual({
      type: 'module',
    });
    const env = ins
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toContain(
      'GEMINI_RUN_GEMINI_PATH=${GEMINI_PREFIX}/node_modules/@google/gemini-cli/bundle/gemini.js',
    );
    expect(args.get('GEMINI_PREFIX')).toBe('/opt/gemini');
  });

  it('creates the agent users at build time with the narrowest sudoers rule, checked by visudo', () => {
    const agents = runs.find((r) => r.includes('--agent-users'));
    expect(agents).toContain('gemini-run setup --agent-users "${AGENT_USERS}" --runner-user runner');
    expect(agents).toContain('visudo -c');
    expect(agents).toContain('chmod 0750 /home/runner');
    // as root: the USER before it is root
    const before = ins.slice(
      0,
      ins.findIndex((i) => i.args === agents),
    );
    expect(before.filter((i) => i.op === 'USER').pop()?.args).toBe('root');
  });

  it('ends as the unprivileged runner user', () => {
    const users = ins.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users[users.length - 1]).toBe('runner');
  });

  it('builds from a context of dist/ only (.dockerignore)', () => {
    const patterns = dockerignore
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(patterns).toEqual(['*', '!dist/']);
  });
});

/**
 * Every key path the chart's default values name, set or commented out (the chart documents most keys as commented
 * examples, such as `# maxRunners: 5`). `##` lines are prose; a sequence item adds `[]` to its parent's path.
 * Pure.
 */
function documentedKeyPaths(text: string): Set<string> {
  const paths = new Set<string>();
  const stack: { indent: number; path: string; list: boolean }[] = [];
  for (const raw of text.split('\n')) {
    if (/^\s*##/.test(raw)) continue;
    const commented = /^(\s*)# ?(.*)$/.exec(raw);
    const line = commented ? `${commented[1]}${commented[2]}` : raw;
    if (commented && /^\s*#/.test(commented[2] ?? '')) continue;
    const m = /^(\s*)(- )?([A-Za-z_][\w.-]*):(\s|$)/.exec(line);
    if (!m) continue;
    const indent = (m[1] ?? '').length;
    let keyIndent = indent;
    if (m[2]) {
      while (stack.length && (stack.at(-1)?.indent ?? -1) > indent) stack.pop();
      const top = stack.at(-1);
      if (!(top?.list && top.indent === indent)) {
        stack.push({ indent, path: `${top?.path ?? ''}[]`, list: true });
      }
      keyIndent = indent + 2;
    }
    while (stack.length && (stack.at(-1)?.indent ?? -1) >= keyIndent) stack.pop();
    const parent = stack.at(-1)?.path;
    const path = parent ? `${parent}.${m[3]}` : (m[3] as string);
    paths.add(path);
    stack.push({ indent: keyIndent, path, list: false });
  }
  return paths;
}

/** Every key path of a parsed YAML value; sequence items add `[]`. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => keyPaths(v, `${prefix}[]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [path, ...keyPaths(v, path)];
  });
}

/** A Kubernetes object's known fields; `true`: anything below (maps of names, volume sources). */
interface Shape {
  [field: string]: Shape | true;
}
const securityContext: Shape = {
  allowPrivilegeEscalation: true,
  appArmorProfile: true,
  capabilities: { add: true, drop: true },
  privileged: true,
  procMount: true,
  readOnlyRootFilesystem: true,
  runAsGroup: true,
  runAsNonRoot: true,
  runAsUser: true,
  seLinuxOptions: true,
  seccompProfile: true,
  windowsOptions: true,
};
const container: Shape = Object.fromEntries([
  ...[
    'args',
    'command',
    'envFrom',
    'image',
    'imagePullPolicy',
    'lifecycle',
    'livenessProbe',
    'name',
    'ports',
    'readinessProbe',
    'resizePolicy',
    'restartPolicy',
    'startupProbe',
    'stdin',
    'stdinOnce',
    'terminationMessagePath',
    'terminationMessagePolicy',
    'tty',
    'volumeDevices',
    'workingDir',
  ].map((f) => [f, true]),
  ['env', { name: true, value: true, valueFrom: true }],
  ['resources', { claims: true, limits: true, requests: true }],
  ['securityContext', securityContext],
  [
    'volumeMounts',
    {
      mountPath: true,
      mountPropagation: true,
      name: true,
      readOnly: true,
      recursiveReadOnly: true,
      subPath: true,
      subPathExpr: true,
    },
  ],
]) as Shape;
const podSpec: Shape = Object.fromEntries([
  ...[
    'activeDeadlineSeconds',
    'affinity',
    'automountServiceAccountToken',
    'dnsConfig',
    'dnsPolicy',
    'enableServiceLinks',
    'hostAliases',
    'hostIPC',
    'hostNetwork',
    'hostPID',
    'hostUsers',
    'hostname',
    'imagePullSecrets',
    'nodeName',
    'nodeSelector',
    'os',
    'overhead',
    'preemptionPolicy',
    'priority',
    'priorityClassName',
    'readinessGates',
    'resourceClaims',
    'resources',
    'restartPolicy',
    'runtimeClassName',
    'schedulerName',
    'schedulingGates',
    'securityContext',
    'serviceAccount',
    'serviceAccountName',
    'setHostnameAsFQDN',
    'shareProcessNamespace',
    'subdomain',
    'terminationGracePeriodSeconds',
    'tolerations',
    'topologySpreadConstraints',
    'volumes',
  ].map((f) => [f, true]),
  ['containers', container],
  ['initContainers', container],
]) as Shape;

/** Key paths of `value` that `shape` does not know. Pure. */
function unknownFields(value: unknown, shape: Shape, prefix: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => unknownFields(v, shape, `${prefix}[]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = `${prefix}.${k}`;
    const sub = shape[k];
    if (sub === undefined) return [path];
    return sub === true ? [] : unknownFields(v, sub, path);
  });
}

const FREE_FORM = /(^|\.)(labels|annotations)$/;

/** `a.b.c` → `a`, `a.b`: the maps a path lies in. */
function parentsOf(path: string): string[] {
  const parts = path.split('.');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('.'));
}

/** The paths of `values` the chart would ignore: not among its documented keys, or not a PodSpec field. Pure. */
function ignoredKeys(values: Record<string, unknown>, documented: Set<string>): string[] {
  const { template, ...rest } = values;
  const outsidePod = keyPaths(rest).filter(
    (p) => !documented.has(p) && !parentsOf(p).some((q) => FREE_FORM.test(q)),
  );
  const pod = (template ?? {}) as Record<string, unknown>;
  return [
    ...outsidePod,
    ...Object.keys(pod)
      .filter((k) => k !== 'spec' && k !== 'metadata')
      .map((k) => `template.${k}`),
    ...unknownFields(pod.spec ?? {}, podSpec, 'template.spec'),
  ];
}

describe('deploy/arc/values.yaml', () => {
  const chartVersion = /chart version (\d+\.\d+\.\d+)/.exec(valuesText)?.[1];
  const fixtureName = `gha-runner-scale-set-${chartVersion}-values.yaml`;
  const fixture = readFileSync(join(root, 'fixtures', 'arc', fixtureName), 'utf8');
  const documented = documentedKeyPaths(fixture);
  const values = parse(valuesText) as Record<string, unknown>;

  it('parses as YAML without errors and has the scale set shape', () => {
    const doc = parseDocument(valuesText);
    expect(doc.errors).toEqual([]);
    const v = valuesSchema.parse(values);
    expect(v.maxRunners).toBeGreaterThanOrEqual(v.minRunners);
  });

  it('pins one chart version, and the README installs both charts at it, the secret first', () => {
    expect(chartVersion).toBeDefined();
    expect(readdirSync(join(root, 'fixtures', 'arc'))).toContain(fixtureName);
    // The fixture names its source and the version it stands for.
    expect(fixture).toMatch(
      /https:\/\/github\.com\/actions\/actions-runner-controller\/blob\/[0-9a-f]{40}\/charts\/gha-runner-scale-set\/values\.yaml/,
    );
    expect(fixture).toContain(`chart version ${chartVersion}`);
    for (const source of [valuesText, readme]) {
      // One line per command: continuation lines joined (in the values file they are comments).
      const text = source.replace(/\\\n#?\s*/g, ' ');
      const installs = [...text.matchAll(/helm install[^\n]*/g)].map((m) => m[0]);
      expect(installs.length).toBeGreaterThanOrEqual(2);
      for (const cmd of installs) expect(cmd).toContain(`--version ${chartVersion}`);
      const isController = (c: string): boolean => c.includes('/gha-runner-scale-set-controller');
      const controller = text.indexOf(installs.find(isController) ?? '\0');
      const secret = text.indexOf('kubectl create secret generic');
      const scaleSet = text.indexOf(installs.find((c) => !isController(c)) ?? '\0');
      expect(controller).toBeGreaterThan(-1);
      expect(secret).toBeGreaterThan(controller);
      expect(scaleSet).toBeGreaterThan(secret);
    }
  });

  it("uses only keys the chart reads: its defaults' keys, and PodSpec fields under template.spec", () => {
    expect(documented).toContain('maxRunners');
    expect(documented).toContain('githubConfigSecret.github_app_private_key');
    expect(ignoredKeys(values, documented)).toEqual([]);
  });

  it('the key check catches a misspelled chart key and a misspelled PodSpec field', () => {
    const spec = valuesSchema.parse(values).template.spec;
    const broken = {
      ...values,
      maxRunner: 3,
      template: { spec: { ...spec, containers: [{ ...spec.containers[0], securityContex: {} }] } },
    };
    expect(ignoredKeys(broken, documented)).toEqual([
      'maxRunner',
      'template.spec.containers[].securityContex',
    ]);
  });

  it('runs the runner container as uid 1001 with only what sudo needs to start the agent user', () => {
    const runner = valuesSchema.parse(values).template.spec.containers[0];
    const sc = runner?.securityContext;
    expect(sc?.runAsUser).toBe(1001);
    expect(sc?.runAsNonRoot).toBe(true);
    // false would set no_new_privs: sudo refuses, and the agent cannot get its own user.
    expect(sc?.allowPrivilegeEscalation).not.toBe(false);
    expect(sc?.capabilities.drop).toEqual(['ALL']);
    // NET_ADMIN: the agent's packet filter (network: restricted).
    expect([...(sc?.capabilities.add ?? [])].sort()).toEqual([
      'AUDIT_WRITE',
      'NET_ADMIN',
      'SETGID',
      'SETUID',
    ]);
    // No emptyDir (0777 without the sticky bit) under the runner's home or /tmp.
    for (const m of runner?.volumeMounts ?? []) expect(m.mountPath).not.toMatch(/^\/(home\/runner|tmp)/);
  });

  it('runs the image tagged with the pinned gemini version and the same gemini path', () => {
    const runner = valuesSchema.parse(values).template.spec.containers[0];
    expect(runner?.image).toMatch(new RegExp(`:${DEFAULT_GEMINI_VERSION.replace(/\./g, '\\.')}$`));
    expect(runner?.command).toEqual(['/home/runner/run.sh']);
    const geminiPath = runner?.env.find((e) => e.name === 'GEMINI_RUN_GEMINI_PATH')?.value;
    const prefix = /^ARG GEMINI_PREFIX=(.*)$/m.exec(dockerfile)?.[1];
    expect(geminiPath).toBe(`${prefix}/node_modules/@google/gemini-cli/bundle/gemini.js`);
  });
});

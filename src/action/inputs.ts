import * as core from '@actions/core';
import { z } from 'zod';
import { APPROVAL_MODES, type ApprovalMode } from '../domain/types.js';
import {
  maxTokensSchema,
  runModeSchema,
  timeoutMinutesSchema,
  personSchema,
  withGivenValue,
} from '../domain/value-schemas.js';
import { DEFAULTS_WORD, PROTECTED_POLICIES, parseProtectedPaths } from '../domain/protected-paths.js';
import { DEFAULT_GEMINI_VERSION } from '../gemini/cli-profile.js';
import { parseSettingsInput, parseToolList } from '../gemini/user-settings.js';
import type { IsolationMode } from '../isolation/sandbox.js';
import type { NetworkMode } from '../host/egress.js';
import { parseAllowedHosts } from '../proxy/egress-hosts.js';
import { UserError } from '../util/errors.js';

/**
 * One input of action.yml: its default as the runner fills it in (a string), and how the string parses. An
 * empty value takes the default, as the runner would have done.
 */
function input<T extends z.ZodType<unknown, string>>(
  defaultValue: string,
  parse: T,
  o: { secret?: true } = {},
) {
  return z
    .string()
    .transform((s) => (s === '' ? defaultValue : s))
    .pipe(parse)
    .meta({ default: defaultValue, secret: o.secret ?? false });
}

const text = z.string();
const ISOLATION_MODES: [IsolationMode, ...IsolationMode[]] = ['user', 'none'];
const NETWORK_MODES: [NetworkMode, ...NetworkMode[]] = ['restricted', 'none', 'open'];

const bool = (name: string) =>
  z
    .string()
    .transform((s) => s.toLowerCase())
    .refine((s) => s === 'true' || s === 'false', { message: `'${name}' must be 'true' or 'false'` })
    .transform((s) => s === 'true');

const list = (name: string, separator: RegExp) =>
  z.string().transform((s, ctx) => {
    try {
      return parseToolList(s, separator, name);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
      return z.NEVER;
    }
  });

/**
 * A comma- or newline-separated list of names, each matching `pattern` (told as `what`), duplicates dropped.
 * `map` normalises an entry first (a team given as `org/slug` is its slug).
 */
const names = (name: string, pattern: RegExp, what: string, map: (s: string) => string = (s) => s) =>
  z.string().transform((s, ctx) => {
    const items = [
      ...new Set(
        s
          .split(/[,\r\n]/)
          .map((x) => map(x.trim()))
          .filter(Boolean),
      ),
    ];
    const bad = items.find((x) => !pattern.test(x));
    if (bad === undefined) return items;
    ctx.addIssue({ code: 'custom', message: `'${name}' has ${JSON.stringify(bad)}, which is not ${what}` });
    return z.NEVER;
  });
/** `Name <email>`; empty: the pushing token's identity. */
const person = (name: string) => personSchema(`'${name}'`);
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(\[bot\])?$/;

/**
 * Every input of action.yml, declared once: name, default and parser. The parsed settings type, the list of
 * names and the defaults all derive from it; test/unit/action-metadata.test.ts checks it against action.yml.
 */
const INPUT_SHAPE = {
  'github-token': input('', text, { secret: true }),
  'gemini-oauth-creds': input('', text, { secret: true }),
  'gemini-google-account': input('', text),
  'gemini-api-key': input('', text, { secret: true }),
  'use-vertex-ai': input('false', bool('use-vertex-ai')),
  'google-cloud-project': input('', text),
  'google-cloud-location': input('', text),
  'gemini-version': input(
    DEFAULT_GEMINI_VERSION,
    z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, {
      message: `'gemini-version' must be an exact version like ${DEFAULT_GEMINI_VERSION}`,
    }),
  ),
  'gemini-path': input('', text),
  'allow-unchecked-gemini-version': input('false', bool('allow-unchecked-gemini-version')),
  model: input('', text),
  mode: input('interactive', runModeSchema("'mode'")),
  'approval-mode': input(
    'yolo',
    z.enum(APPROVAL_MODES as [ApprovalMode, ...ApprovalMode[]], {
      message: `'approval-mode' must be one of: ${APPROVAL_MODES.join(', ')}`,
    }),
  ),
  prompt: input('', text),
  'trigger-label': input('gemini-run', text),
  'trigger-phrase': input('/gemini', text),
  'trigger-phrase-anywhere': input('false', bool('trigger-phrase-anywhere')),
  'fix-ci': input('false', bool('fix-ci')),
  'max-fix-attempts': input(
    '2',
    z
      .string()
      .regex(/^\d{1,2}$/, { message: "'max-fix-attempts' must be a whole number from 0 to 99" })
      .transform(Number),
  ),
  'on-quota': input('fail', z.enum(['fail', 'defer'], { message: "'on-quota' must be 'fail' or 'defer'" })),
  'deferred-label': input(
    'gemini-run:deferred',
    z
      .string()
      .regex(/^\P{Cc}{1,50}$/u, { message: "'deferred-label' must be a label name (1 to 50 characters)" }),
  ),
  'max-resumes': input(
    '1',
    z
      .string()
      .regex(/^(?:[1-9]|10)$/, { message: "'max-resumes' must be a whole number from 1 to 10" })
      .transform(Number),
  ),
  'max-deferrals': input(
    '3',
    z
      .string()
      .regex(/^\d{1,2}$/, { message: "'max-deferrals' must be a whole number from 0 to 99" })
      .transform(Number),
  ),
  'trigger-assignee': input(
    '',
    z.string().regex(/^[A-Za-z0-9-]*(\[bot\])?$/, {
      message: "'trigger-assignee' must be a GitHub login",
    }),
  ),
  'timeout-minutes': input('30', timeoutMinutesSchema("'timeout-minutes'")),
  'max-tokens': input('0', maxTokensSchema("'max-tokens'")),
  // Empty: no cap. A cap of 0 would stop every run before it starts: not a setting anyone means.
  'max-daily-tokens': input(
    '',
    z
      .string()
      .regex(/^(?:[1-9]\d{0,11})?$/, {
        message: "'max-daily-tokens' must be empty (no cap) or a whole number of tokens above 0",
      })
      .transform((s) => (s === '' ? undefined : Number(s))),
  ),
  'base-branch': input('', text),
  'branch-prefix': input(
    'gemini-run/',
    z.string().regex(/^[A-Za-z0-9._/-]*$/, {
      message: "'branch-prefix' may only contain letters, digits, '.', '_', '-' and '/'",
    }),
  ),
  draft: input('false', bool('draft')),
  'scrub-attribution': input('true', bool('scrub-attribution')),
  'upload-transcript': input('true', bool('upload-transcript')),
  'track-progress': input('true', bool('track-progress')),
  'commit-author': input('', person('commit-author')),
  committer: input('', person('committer')),
  'rewrite-author': input('true', bool('rewrite-author')),
  'sign-commits': input(
    'false',
    z
      .string()
      .transform((s) => s.toLowerCase())
      .pipe(
        z.enum(['false', 'true', 'required'], {
          message: "'sign-commits' must be 'true', 'false' or 'required'",
        }),
      )
      .transform((s) => (s === 'false' ? 'off' : s === 'true' ? 'on' : 'required')),
  ),
  isolation: input('user', z.enum(ISOLATION_MODES, { message: "'isolation' must be 'user' or 'none'" })),
  settings: input(
    '',
    z.string().transform((s, ctx) => {
      try {
        return parseSettingsInput(s);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
        return z.NEVER;
      }
    }),
  ),
  instructions: input('', text),
  'allowed-tools': input('', list('allowed-tools', /,/)),
  'exclude-tools': input('', list('exclude-tools', /,/)),
  extensions: input('', list('extensions', /\r?\n/)),
  // GitHub's label names are at most 50 characters; any printable text otherwise.
  labels: input('', names('labels', /^\P{Cc}{1,50}$/u, 'a label name (1 to 50 characters)')),
  assignees: input('', names('assignees', LOGIN, 'a GitHub login')),
  reviewers: input('', names('reviewers', LOGIN, 'a GitHub login')),
  'team-reviewers': input(
    '',
    names('team-reviewers', /^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a team slug', (t) => t.replace(/^[^/]*\//, '')),
  ),
  network: input(
    'restricted',
    z.enum(NETWORK_MODES, { message: "'network' must be 'restricted', 'none' or 'open'" }),
  ),
  'allowed-hosts': input(
    '',
    z.string().transform((s, ctx) => {
      try {
        return parseAllowedHosts(s);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
        return z.NEVER;
      }
    }),
  ),
  'protected-paths': input(
    DEFAULTS_WORD,
    z.string().transform((s, ctx) => {
      const { setting, problems } = parseProtectedPaths(s);
      for (const p of problems) ctx.addIssue({ code: 'custom', message: `'protected-paths': ${p}` });
      return setting;
    }),
  ),
  flow: input(
    'change',
    z.enum(['change', 'review', 'triage'], { message: "'flow' must be 'change', 'review' or 'triage'" }),
  ),
  'allow-fork-review': input('false', bool('allow-fork-review')),
  'review-may-approve': input('false', bool('review-may-approve')),
  'max-review-comments': input(
    '30',
    z
      .string()
      .regex(/^(?:\d|[1-9]\d|100)$/, {
        message: "'max-review-comments' must be a whole number from 0 to 100",
      })
      .transform(Number),
  ),
  'max-triage-labels': input(
    '3',
    z
      .string()
      .regex(/^(?:\d|10)$/, { message: "'max-triage-labels' must be a whole number from 0 to 10" })
      .transform(Number),
  ),
  'protected-paths-policy': input(
    'block',
    z.enum(PROTECTED_POLICIES, { message: "'protected-paths-policy' must be 'block' or 'allow'" }),
  ),
};

type Shape = typeof INPUT_SHAPE;
export type InputName = keyof Shape;

type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

/** The action's settings after parsing; domain code takes this, never core.getInput. */
export type ActionInputs = { [K in InputName as CamelCase<K>]: z.output<Shape[K]> };

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

const inputsSchema = z
  .object(INPUT_SHAPE)
  .transform((v) => Object.fromEntries(Object.entries(v).map(([k, x]) => [camelCase(k), x])) as ActionInputs);

const INPUT_NAMES = Object.keys(INPUT_SHAPE) as InputName[];

function metaOf(name: InputName): { default: string; secret: boolean } {
  return INPUT_SHAPE[name].meta() as { default: string; secret: boolean };
}

/** Every input's default, as action.yml declares it (the runner passes strings). */
export const INPUT_DEFAULTS = Object.fromEntries(INPUT_NAMES.map((n) => [n, metaOf(n).default])) as Record<
  InputName,
  string
>;

const SECRET_INPUTS: readonly InputName[] = INPUT_NAMES.filter((n) => metaOf(n).secret);

/** Pure: raw strings → settings. All problems are reported together in one message. */
export function parseInputs(raw: Partial<Record<InputName, string>>): ActionInputs {
  const full = Object.fromEntries(INPUT_NAMES.map((n) => [n, raw[n] ?? '']));
  const parsed = inputsSchema.safeParse(full);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const name = i.path[0] as InputName;
      return SECRET_INPUTS.includes(name) ? i.message : withGivenValue(i.message, full[name] ?? '');
    });
    throw new UserError(`Invalid input: ${problems.join('; ')}.`);
  }
  return parsed.data;
}

/**
 * Pure: like parseInputs, but an input that does not parse takes its default and the problems come back as one
 * line, so the run can still read its event and tell the person on the issue what to fix.
 */
export function parseInputsLeniently(raw: Partial<Record<InputName, string>>): {
  inputs: ActionInputs;
  problem?: string;
} {
  try {
    return { inputs: parseInputs(raw) };
  } catch (error) {
    const usable = Object.fromEntries(
      INPUT_NAMES.map((n) => [n, INPUT_SHAPE[n].safeParse(raw[n] ?? '').success ? (raw[n] ?? '') : '']),
    );
    return { inputs: parseInputs(usable), problem: (error as Error).message };
  }
}

/**
 * Reads every input through core.getInput (which trims), masks the secret ones at once, and parses them
 * leniently (parseInputsLeniently).
 */
export function getInputs(
  getInput: (name: string) => string = core.getInput,
): ReturnType<typeof parseInputsLeniently> {
  const raw = {} as Record<InputName, string>;
  for (const name of INPUT_NAMES) {
    const value = getInput(name);
    raw[name] = value;
    if (SECRET_INPUTS.includes(name) && value) maskSecret(value);
  }
  const parsed = parseInputsLeniently(raw);
  for (const name of INPUT_NAMES) {
    if (!SECRET_INPUTS.includes(name)) core.debug(`input ${name}=${raw[name] || INPUT_DEFAULTS[name]}`);
  }
  return parsed;
}

/** Masks a secret and the forms it may take in logs (each line, its base64). */
export function maskSecret(value: string): void {
  if (!value) return;
  core.setSecret(value);
  for (const line of value.split(/\r?\n/)) if (line.trim().length > 3) core.setSecret(line.trim());
  core.setSecret(Buffer.from(value, 'utf8').toString('base64'));
}

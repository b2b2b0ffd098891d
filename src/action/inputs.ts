import * as core from '@actions/core';
import { z } from 'zod';
import { APPROVAL_MODES, RUN_MODES, type ApprovalMode, type RunMode } from '../domain/types.js';
import type { IsolationMode } from '../isolation/sandbox.js';
import { UserError } from '../util/errors.js';

/** Every input of action.yml, as the runner passes it (strings). Kept in one place; a test checks it against action.yml. */
export const INPUT_DEFAULTS = {
  'github-token': '',
  'gemini-oauth-creds': '',
  'gemini-google-account': '',
  'gemini-api-key': '',
  'use-vertex-ai': 'false',
  'google-cloud-project': '',
  'google-cloud-location': '',
  'gemini-version': '0.42.0',
  'gemini-path': '',
  model: '',
  mode: 'interactive',
  'approval-mode': 'yolo',
  prompt: '',
  'trigger-label': 'gemini-run',
  'trigger-phrase': '/gemini',
  'timeout-minutes': '30',
  'base-branch': '',
  'branch-prefix': 'gemini-run/',
  draft: 'false',
  'scrub-attribution': 'true',
  'upload-transcript': 'true',
  isolation: 'user',
} as const;

export type InputName = keyof typeof INPUT_DEFAULTS;
export const SECRET_INPUTS: readonly InputName[] = ['github-token', 'gemini-oauth-creds', 'gemini-api-key'];

const bool = (name: InputName) =>
  z
    .string()
    .transform((s) => s.toLowerCase())
    .refine((s) => s === 'true' || s === 'false', {
      message: `'${name}' must be 'true' or 'false'`,
    })
    .transform((s) => s === 'true');

const inputsSchema = z.object({
  'github-token': z.string(),
  'gemini-oauth-creds': z.string(),
  'gemini-google-account': z.string(),
  'gemini-api-key': z.string(),
  'use-vertex-ai': bool('use-vertex-ai'),
  'google-cloud-project': z.string(),
  'google-cloud-location': z.string(),
  'gemini-version': z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, {
    message: "'gemini-version' must be an exact version like 0.42.0",
  }),
  'gemini-path': z.string(),
  model: z.string(),
  mode: z.enum(RUN_MODES as [RunMode, ...RunMode[]], {
    message: `'mode' must be one of: ${RUN_MODES.join(', ')}`,
  }),
  isolation: z.enum(['user', 'none'], { message: "'isolation' must be 'user' or 'none'" }),
  'approval-mode': z.enum(APPROVAL_MODES as [ApprovalMode, ...ApprovalMode[]], {
    message: `'approval-mode' must be one of: ${APPROVAL_MODES.join(', ')}`,
  }),
  prompt: z.string(),
  'trigger-label': z.string().min(1, { message: "'trigger-label' must not be empty" }),
  'trigger-phrase': z.string().min(1, { message: "'trigger-phrase' must not be empty" }),
  'timeout-minutes': z
    .string()
    .transform(Number)
    .refine((n) => Number.isFinite(n) && n > 0 && n <= 6 * 60, {
      message: "'timeout-minutes' must be a number of minutes between 0 and 360",
    }),
  'base-branch': z.string(),
  'branch-prefix': z.string().regex(/^[A-Za-z0-9._/-]*$/, {
    message: "'branch-prefix' may only contain letters, digits, '.', '_', '-' and '/'",
  }),
  draft: bool('draft'),
  'scrub-attribution': bool('scrub-attribution'),
  'upload-transcript': bool('upload-transcript'),
});

/** The action's settings after parsing; domain code takes this, never core.getInput. */
export interface ActionInputs {
  githubToken: string;
  oauthCreds: string;
  googleAccount: string;
  apiKey: string;
  useVertexAi: boolean;
  googleCloudProject: string;
  googleCloudLocation: string;
  geminiVersion: string;
  geminiPath: string;
  model: string;
  mode: RunMode;
  approvalMode: ApprovalMode;
  prompt: string;
  triggerLabel: string;
  triggerPhrase: string;
  timeoutMinutes: number;
  baseBranch: string;
  branchPrefix: string;
  draft: boolean;
  scrubAttribution: boolean;
  uploadTranscript: boolean;
  isolation: IsolationMode;
}

/** Pure: raw strings → settings. All problems are reported together in one message. */
export function parseInputs(raw: Record<InputName, string>): ActionInputs {
  const parsed = inputsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => i.message);
    throw new UserError(`Invalid input: ${problems.join('; ')}.`);
  }
  const v = parsed.data;
  return {
    githubToken: v['github-token'],
    oauthCreds: v['gemini-oauth-creds'],
    googleAccount: v['gemini-google-account'],
    apiKey: v['gemini-api-key'],
    useVertexAi: v['use-vertex-ai'],
    googleCloudProject: v['google-cloud-project'],
    googleCloudLocation: v['google-cloud-location'],
    geminiVersion: v['gemini-version'],
    geminiPath: v['gemini-path'],
    model: v.model,
    mode: v.mode,
    approvalMode: v['approval-mode'],
    prompt: v.prompt,
    triggerLabel: v['trigger-label'],
    triggerPhrase: v['trigger-phrase'],
    timeoutMinutes: v['timeout-minutes'],
    baseBranch: v['base-branch'],
    branchPrefix: v['branch-prefix'],
    draft: v.draft,
    scrubAttribution: v['scrub-attribution'],
    uploadTranscript: v['upload-transcript'],
    isolation: v.isolation,
  };
}

/**
 * Reads every input through core.getInput (which trims), masks the secret ones at once, and parses them.
 * An empty input takes the action.yml default, as the runner would have filled it in.
 */
export function getInputs(getInput: (name: string) => string = core.getInput): ActionInputs {
  const raw = {} as Record<InputName, string>;
  for (const name of Object.keys(INPUT_DEFAULTS) as InputName[]) {
    const value = getInput(name);
    raw[name] = value === '' ? INPUT_DEFAULTS[name] : value;
    if (SECRET_INPUTS.includes(name) && value) maskSecret(value);
  }
  const inputs = parseInputs(raw);
  for (const name of Object.keys(raw) as InputName[]) {
    if (!SECRET_INPUTS.includes(name)) core.debug(`input ${name}=${raw[name]}`);
  }
  return inputs;
}

/** Masks a secret and the forms it may take in logs (each line, its base64). */
export function maskSecret(value: string): void {
  if (!value) return;
  core.setSecret(value);
  for (const line of value.split(/\r?\n/)) if (line.trim().length > 3) core.setSecret(line.trim());
  core.setSecret(Buffer.from(value, 'utf8').toString('base64'));
}

/**
 * Everything the run engine needs to know about Gemini CLI 0.42.0, gathered in one object per mode. The
 * conformance suite (test/unit/conformance.test.ts) checks the same invariants for every registered provider.
 */
import type { RunMode } from '../domain/types.js';
import { logout, readAuthStatus } from './auth-status.js';
import {
  ATTRIBUTION_FLAGS,
  ATTRIBUTION_PATTERNS,
  isAttributionLine,
  scrubAttribution,
} from './attribution.js';
import { CONTEXT_FILE_NAME, SKILLS_DIR } from './context-file.js';
import {
  EFFORT_CATALOG,
  MODEL_CATALOG,
  resolveEffort,
  resolveModel,
  type EffortEntry,
  type ModelEntry,
} from './models.js';
import { StreamJsonTranslator } from './headless.js';
import { OWNED_SETTINGS, CONTEXT_FILE_NAMES } from './settings.js';
import {
  buildEnv,
  buildHeadlessSpec,
  buildInteractiveSpec,
  type BuildEnvOptions,
  type SpawnSpec,
  type SpecOptions,
} from './spawn.js';
import { followTelemetry } from './telemetry.js';
import { foldTranscriptFile, locateTranscript, restoreTranscript } from './transcript.js';

/** One step of a key recipe: text typed literally (`send-keys -l`), or one named key (`send-keys <key>`). */
export type KeyStep = { literal: string } | { key: 'Enter' | 'Escape' } | { pauseMs: number };

export interface KeyRecipes {
  /** Literal text, a pause so the TUI takes it as typed rather than pasted-then-submitted, then Enter. */
  reply(text: string): KeyStep[];
  /** ONE Escape cancels the in-flight request. Two within 500 ms open /rewind; Ctrl-C twice quits. */
  interrupt: KeyStep[];
  /** `/quit` + Enter: prints the session stats and exits cleanly. */
  quit: KeyStep[];
}

export interface Provider {
  id: 'gemini-interactive' | 'gemini-headless';
  mode: RunMode;
  /** The per-run context file in the worktree (carries the task). */
  contextFileName: string;
  /** All names the CLI loads as context, ours first (what the settings merge sets). */
  contextFileNames: readonly string[];
  skillsDir: string;
  nativeSkillDiscovery: boolean;
  /** Worktree paths (git pathspec globs, root-relative) a run seeds and that must never be committed. */
  seededPathPatterns: readonly string[];
  scrub: {
    patterns: readonly string[];
    flags: string;
    /** Fixture files (repository-relative) of lines the patterns must / must not match. */
    samples: { positive: string; negative: string };
    isAttributionLine(line: string): boolean;
    scrub(text: string): string;
  };
  models: readonly ModelEntry[];
  efforts: readonly EffortEntry[];
  resolveModel(input: string | undefined): string | undefined;
  resolveEffort(input: string | undefined): string;
  buildEnv(o: BuildEnvOptions): Record<string, string>;
  buildSpec(o: SpecOptions & { stdin?: string }): SpawnSpec;
  /** Interactive only: how to type into the TUI. */
  keys?: KeyRecipes;
  /** How the engine learns about turns: telemetry edges (interactive) or the stream-json stdout (headless). */
  signals:
    | { kind: 'telemetry'; follow: typeof followTelemetry }
    | { kind: 'stream-json'; createTranslator: () => StreamJsonTranslator };
  /** Where the conversation is kept, and how to continue it elsewhere (`--resume`). */
  transcript: {
    locate: typeof locateTranscript;
    fold: typeof foldTranscriptFile;
    restore: typeof restoreTranscript;
  };
  auth: {
    /** Dotted settings paths → values the merge owns, per auth kind. */
    ownedSettings: typeof OWNED_SETTINGS;
    status: typeof readAuthStatus;
    logout: typeof logout;
    /** OAuth login is the paste-the-code flow (NO_BROWSER=true). */
    loginFlow: 'oauth-code';
  };
}

/** Measured live (facts: keys): ~300 ms between the typed text and Enter. */
const REPLY_PAUSE_MS = 300;

export const GEMINI_KEYS: KeyRecipes = {
  reply: (text) => [{ literal: text }, { pauseMs: REPLY_PAUSE_MS }, { key: 'Enter' }],
  interrupt: [{ key: 'Escape' }],
  quit: [{ literal: '/quit' }, { pauseMs: REPLY_PAUSE_MS }, { key: 'Enter' }],
};

const common = {
  contextFileName: CONTEXT_FILE_NAME,
  contextFileNames: CONTEXT_FILE_NAMES,
  skillsDir: SKILLS_DIR,
  nativeSkillDiscovery: true,
  seededPathPatterns: [`/${CONTEXT_FILE_NAME}`, `/${SKILLS_DIR}/**`],
  scrub: {
    patterns: ATTRIBUTION_PATTERNS,
    flags: ATTRIBUTION_FLAGS,
    samples: { positive: 'fixtures/attribution/positive.txt', negative: 'fixtures/attribution/negative.txt' },
    isAttributionLine,
    scrub: scrubAttribution,
  },
  models: MODEL_CATALOG,
  efforts: EFFORT_CATALOG,
  resolveModel,
  resolveEffort,
  buildEnv,
  transcript: { locate: locateTranscript, fold: foldTranscriptFile, restore: restoreTranscript },
  auth: { ownedSettings: OWNED_SETTINGS, status: readAuthStatus, logout, loginFlow: 'oauth-code' },
} satisfies Partial<Provider>;

export const geminiInteractive: Provider = {
  ...common,
  id: 'gemini-interactive',
  mode: 'interactive',
  buildSpec: (o) => buildInteractiveSpec(o),
  keys: GEMINI_KEYS,
  signals: { kind: 'telemetry', follow: followTelemetry },
};

export const geminiHeadless: Provider = {
  ...common,
  id: 'gemini-headless',
  mode: 'headless',
  buildSpec: (o) => buildHeadlessSpec(o),
  signals: { kind: 'stream-json', createTranslator: () => new StreamJsonTranslator() },
};

export const providers: readonly Provider[] = [geminiInteractive, geminiHeadless];

export function providerFor(mode: RunMode): Provider {
  return mode === 'headless' ? geminiHeadless : geminiInteractive;
}

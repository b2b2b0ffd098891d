/**
 * The models a run may ask for. Auto (no `-m`) is the default: 0.42.0 then routes between Gemini 3 Pro and
 * Flash per request and downgrades to the 2.5 family when the account lacks preview access.
 */
import { UserError } from '../util/errors.js';

export interface ModelEntry {
  /** What users write in the `model` input. */
  id: string;
  label: string;
  /** The `-m` value; undefined = no flag (Auto). */
  flag?: string;
  default?: boolean;
}

export const DEFAULT_MODEL_ID = 'auto';

export const MODEL_CATALOG: readonly ModelEntry[] = [
  { id: DEFAULT_MODEL_ID, label: 'Auto (Gemini 3)', default: true },
  { id: 'gemini-3-pro-preview', label: 'Gemini 3 Pro (preview)', flag: 'gemini-3-pro-preview' },
  { id: 'gemini-3-flash-preview', label: 'Gemini 3 Flash (preview)', flag: 'gemini-3-flash-preview' },
  { id: 'gemini-2.5-pro', label: 'Gemini 2.5 Pro', flag: 'gemini-2.5-pro' },
  { id: 'gemini-2.5-flash', label: 'Gemini 2.5 Flash', flag: 'gemini-2.5-flash' },
  // Also in 0.42.0's /model list (entitlement-gated): accepted, not advertised first.
  { id: 'gemini-2.5-flash-lite', label: 'Gemini 2.5 Flash Lite', flag: 'gemini-2.5-flash-lite' },
  { id: 'gemini-3.1-pro-preview', label: 'Gemini 3.1 Pro (preview)', flag: 'gemini-3.1-pro-preview' },
  {
    id: 'gemini-3.1-flash-lite-preview',
    label: 'Gemini 3.1 Flash Lite (preview)',
    flag: 'gemini-3.1-flash-lite-preview',
  },
];

/**
 * The `-m` value for a model input: undefined for Auto (empty input, `auto`, or the CLI's own
 * `auto-gemini-3` name). Anything not in the catalog is a UserError that lists the catalog.
 */
export function resolveModel(input: string | undefined): string | undefined {
  const id = (input ?? '').trim().toLowerCase();
  if (id === '' || id === DEFAULT_MODEL_ID || id === 'auto-gemini-3') return undefined;
  const entry = MODEL_CATALOG.find((m) => m.id === id);
  if (!entry) {
    throw new UserError(
      `Unknown model '${(input ?? '').trim()}': use one of ${MODEL_CATALOG.map((m) => m.id).join(', ')} (empty = auto).`,
    );
  }
  return entry.flag;
}

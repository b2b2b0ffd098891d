/**
 * The models a run may ask for. Auto (no `-m`) is the default: 0.42.0 then routes between Gemini 3 Pro and
 * Flash per request and downgrades to the 2.5 family when the account lacks preview access.
 */
import { UserError } from '../util/errors.js';
import type { CheckedVersion } from './cli-profile.js';

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

/**
 * The model ids one CLI may ask for, by family. A run's CLI turns the model it is given into another id of the same
 * family by itself (`resolveModel` in its bundle: the Gemini 3.1 and custom-tools switches for pro, no preview
 * access → the 2.5 model, 0.61.0's "latest flash" promotion and backend mappings), and its utility calls
 * (`DEFAULT_MODEL_CONFIGS.aliases` in its bundle) name flash-lite (classifier, prompt completion, edit corrector,
 * summarizers), flash (web search and fetch, loop detection, edit fixer, next-speaker check, history summarizer)
 * and gemini-3-pro-preview (loop detection's double check, the default chat compression).
 */
interface ModelFamilies {
  pro: readonly string[];
  flash: readonly string[];
  flashLite: readonly string[];
}

const PRO: readonly string[] = [
  'gemini-3-pro-preview',
  'gemini-3.1-pro-preview',
  'gemini-3.1-pro-preview-customtools',
  'gemini-2.5-pro',
];

const FAMILIES: Record<CheckedVersion, ModelFamilies> = {
  // chunk-ECNYAST2.js (config/models.ts) and chunk-7VVHSNDQ.js (DEFAULT_MODEL_CONFIGS).
  '0.42.0': {
    pro: PRO,
    flash: ['gemini-3-flash-preview', 'gemini-2.5-flash'],
    flashLite: ['gemini-2.5-flash-lite', 'gemini-3.1-flash-lite-preview'],
  },
  // chunk-5FZXKDXH.js: BASE/LATEST flash and flash-lite, LEGACY_CCPA_FLASH_MODEL, getBackendModelMappings; the
  // captures (fixtures/gemini-0.61.0/*/requests.json) route Auto to gemini-3.8-flash and classify on
  // gemini-3.5-flash-lite.
  '0.61.0': {
    pro: PRO,
    flash: [
      'gemini-3-flash-preview',
      'gemini-3.5-flash',
      'gemini-3.8-flash',
      'gemini-3-flash',
      'gemini-2.5-flash',
    ],
    flashLite: [
      'gemini-3.1-flash-lite',
      'gemini-3.5-flash-lite',
      'gemini-2.5-flash-lite',
      'gemini-3.1-flash-lite-preview',
    ],
  },
};

/** The pro models the utility calls name whatever the run's model (and the one they fall back to). */
const HELPER_PRO: readonly string[] = ['gemini-3-pro-preview', 'gemini-2.5-pro'];

/**
 * The model ids a run's CLI may call, which the model proxy forwards (and no other): for Auto (`model`
 * undefined) the pro and flash families its router picks from, else the given model and the ids the CLI resolves
 * it to; plus the CLI's own helper models. Sorted, without repeats.
 */
export function modelsForRun(checked: CheckedVersion, model: string | undefined): string[] {
  const f = FAMILIES[checked];
  const familyOf = (m: string): readonly string[] =>
    f.flashLite.includes(m) || m.includes('flash-lite')
      ? f.flashLite
      : f.flash.includes(m) || m.includes('flash')
        ? f.flash
        : f.pro.includes(m)
          ? f.pro
          : [];
  const main = model === undefined ? [...f.pro, ...f.flash] : [model, ...familyOf(model)];
  return [...new Set([...main, ...f.flashLite, ...f.flash, ...HELPER_PRO])].sort();
}

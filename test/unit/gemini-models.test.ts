import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKED_VERSIONS } from '../../src/gemini/cli-profile.js';
import { DEFAULT_MODEL_ID, MODEL_CATALOG, modelsForRun, resolveModel } from '../../src/gemini/models.js';
import { UserError } from '../../src/util/errors.js';

describe('models', () => {
  it('Auto is the single default and maps to no -m', () => {
    expect(MODEL_CATALOG.filter((m) => m.default).map((m) => m.id)).toEqual([DEFAULT_MODEL_ID]);
    for (const input of [undefined, '', '  ', 'auto', 'AUTO', 'auto-gemini-3'])
      expect(resolveModel(input)).toBeUndefined();
  });
  it('the pinned ids map to themselves', () => {
    for (const id of [
      'gemini-3-pro-preview',
      'gemini-3-flash-preview',
      'gemini-2.5-pro',
      'gemini-2.5-flash',
      'gemini-2.5-flash-lite',
      'gemini-3.1-pro-preview',
      'gemini-3.1-flash-lite-preview',
    ]) {
      expect(resolveModel(id)).toBe(id);
    }
    expect(resolveModel(' Gemini-2.5-Pro ')).toBe('gemini-2.5-pro');
  });
  it('an unknown model is a one-line UserError listing the catalog', () => {
    let err: unknown;
    try {
      resolveModel('gpt-5');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toContain("'gpt-5'");
    for (const m of MODEL_CATALOG) expect(message).toContain(m.id);
    expect(message).not.toContain('\n');
  });
});

describe('modelsForRun: the models the model proxy forwards', () => {
  /** Every model a captured run of `version` called (the captures run on Auto). */
  function capturedModels(version: string): string[] {
    const dir = new URL(`../../fixtures/gemini-${version}/`, import.meta.url);
    const out = new Set<string>();
    for (const capture of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      let text: string;
      try {
        text = readFileSync(new URL(`${capture.name}/requests.json`, dir), 'utf8');
      } catch {
        continue;
      }
      for (const r of JSON.parse(text) as { path: string }[]) {
        const m = /\/models\/([^:/]+):/.exec(r.path);
        if (m?.[1]) out.add(m[1]);
      }
    }
    return [...out];
  }

  it.each(CHECKED_VERSIONS)('%s: every model its captured runs called is forwarded on Auto', (version) => {
    const called = capturedModels(version);
    expect(called.length).toBeGreaterThan(1);
    const allowed = modelsForRun(version, undefined);
    for (const m of called) expect(allowed, m).toContain(m);
  });

  it.each(CHECKED_VERSIONS)(
    '%s: a run on any catalog model may call it and the CLI helpers, never other models',
    (version) => {
      for (const entry of MODEL_CATALOG) {
        const model = resolveModel(entry.id);
        const allowed = modelsForRun(version, model);
        if (model) expect(allowed).toContain(model);
        // The classifier, next-speaker and loop checks, summaries: flash-lite, flash, and 3 Pro's double check.
        for (const helper of ['gemini-2.5-flash-lite', 'gemini-3-flash-preview', 'gemini-3-pro-preview'])
          expect(allowed).toContain(helper);
        for (const other of [
          'gemma-4-31b-it',
          'gemini-2.5-flash-image',
          'gemini-embedding-001',
          'gemini-2.5-computer-use-preview-10-2025',
          'gemini-exp-1206',
          'imagen-4.0-generate-001',
        ])
          expect(allowed).not.toContain(other);
      }
    },
  );

  it('gives Gemini 3.1 Pro only to Auto and the pro models, which the CLI may switch to it', () => {
    expect(modelsForRun('0.42.0', 'gemini-2.5-flash')).not.toContain('gemini-3.1-pro-preview');
    expect(modelsForRun('0.42.0', 'gemini-2.5-flash-lite')).not.toContain(
      'gemini-3.1-pro-preview-customtools',
    );
    expect(modelsForRun('0.42.0', 'gemini-3-pro-preview')).toContain('gemini-3.1-pro-preview-customtools');
    expect(modelsForRun('0.42.0', undefined)).toContain('gemini-3.1-pro-preview');
    // 0.61.0 promotes flash to its latest flash.
    expect(modelsForRun('0.61.0', 'gemini-2.5-flash')).toContain('gemini-3.8-flash');
    expect(modelsForRun('0.42.0', 'gemini-2.5-flash')).not.toContain('gemini-3.8-flash');
  });
});

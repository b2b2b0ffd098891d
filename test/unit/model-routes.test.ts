import { describe, expect, it } from 'vitest';
import {
  modelRoute,
  modelsInBody,
  shownRefusal,
  tallyRefusal,
  type Refusals,
} from '../../src/proxy/model-routes.js';

const P = 'gemini-run-placeholder-0123456789';

describe('modelRoute: what the model proxy forwards', () => {
  it.each([
    // Gemini API, as 0.42.0 and 0.61.0 send it (fixtures/*/requests.json)
    ['gemini-api', 'POST', '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'],
    ['gemini-api', 'POST', '/v1beta/models/gemini-2.5-flash-lite:generateContent'],
    ['gemini-api', 'POST', '/v1beta/models/gemini-3-flash-preview:countTokens'],
    ['gemini-api', 'POST', '/v1/models/gemini-2.5-pro:generateContent'],
    // Vertex AI (compat.md A15): regional with project, and express mode
    [
      'vertex',
      'POST',
      '/v1beta1/projects/my-proj/locations/us-central1/publishers/google/models/m:streamGenerateContent?alt=sse',
    ],
    ['vertex', 'POST', '/v1beta1/projects/123456/locations/global/publishers/google/models/m:countTokens'],
    ['vertex', 'POST', '/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent'],
    // Code Assist (CodeAssistServer in both bundles)
    ['code-assist', 'POST', '/v1internal:streamGenerateContent?alt=sse'],
    ['code-assist', 'POST', '/v1internal:generateContent'],
    ['code-assist', 'POST', '/v1internal:countTokens'],
    ['code-assist', 'POST', '/v1internal:loadCodeAssist'],
    ['code-assist', 'POST', '/v1internal:onboardUser'],
    ['code-assist', 'POST', '/v1internal:listExperiments'],
    ['code-assist', 'POST', '/v1internal:retrieveUserQuota'],
    ['code-assist', 'POST', '/v1internal:fetchAdminControls'],
    ['code-assist', 'POST', '/v1internal:recordCodeAssistMetrics'],
    ['code-assist', 'GET', '/v1internal/operations/onboard-123_x'],
  ] as const)('%s: %s %s is forwarded', (api, method, target) => {
    expect(modelRoute(api, method, target)).toMatchObject({ ok: true, target });
  });

  it('says which model a model call names: in its path, or (Code Assist) in its body', () => {
    expect(modelRoute('gemini-api', 'POST', '/v1beta/models/gemini-2.5-flash:generateContent')).toEqual({
      ok: true,
      target: '/v1beta/models/gemini-2.5-flash:generateContent',
      model: { in: 'path', id: 'gemini-2.5-flash' },
    });
    expect(
      modelRoute('vertex', 'POST', '/v1beta1/publishers/google/models/gemini-3-flash-preview:countTokens'),
    ).toMatchObject({ model: { in: 'path', id: 'gemini-3-flash-preview' } });
    expect(modelRoute('code-assist', 'POST', '/v1internal:streamGenerateContent?alt=sse')).toMatchObject({
      model: { in: 'body' },
    });
    // Code Assist's bookkeeping names no model: not a model call.
    expect(modelRoute('code-assist', 'POST', '/v1internal:loadCodeAssist')).toEqual({
      ok: true,
      target: '/v1internal:loadCodeAssist',
    });
  });

  it('reads the models a Code Assist body names, and refuses any form it does not read', () => {
    // As the CLI sends them (CodeAssistServer: toGenerateContentRequest, toCountTokenRequest).
    expect(modelsInBody({ model: 'gemini-2.5-pro', project: 'p', request: { contents: [] } })).toEqual([
      'gemini-2.5-pro',
    ]);
    expect(modelsInBody({ request: { model: 'models/gemini-2.5-flash', contents: [] } })).toEqual([
      'gemini-2.5-flash',
    ]);
    // Both named: both are checked.
    expect(modelsInBody({ model: 'a', request: { model: 'models/b' } })).toEqual(['a', 'b']);
    for (const body of [
      {},
      { request: {} },
      { model: 7 },
      { model: ['gemini-2.5-pro'] },
      { model: 'models/../x' },
      { model: 'gemini-2.5-pro', request: { model: { id: 'x' } } },
      [{ model: 'gemini-2.5-pro' }],
      'gemini-2.5-pro',
      null,
    ])
      expect(modelsInBody(body), JSON.stringify(body)).toBeUndefined();
  });

  it('drops the key parameter and keeps only alt=sse on a stream call', () => {
    expect(
      modelRoute('gemini-api', 'POST', `/v1beta/models/m:streamGenerateContent?alt=sse&key=${P}`),
    ).toMatchObject({
      ok: true,
      target: '/v1beta/models/m:streamGenerateContent?alt=sse',
    });
    expect(modelRoute('gemini-api', 'POST', `/v1beta/models/m:generateContent?key=${P}`)).toMatchObject({
      ok: true,
      target: '/v1beta/models/m:generateContent',
    });
    expect(modelRoute('gemini-api', 'POST', '/v1beta/models/m:generateContent?')).toMatchObject({
      ok: true,
      target: '/v1beta/models/m:generateContent',
    });
  });

  it.each([
    // other methods of the Gemini API
    ['gemini-api', 'GET', '/v1beta/models'],
    ['gemini-api', 'GET', '/v1beta/models/gemini-2.5-flash'],
    ['gemini-api', 'POST', '/v1beta/models/m:embedContent'],
    ['gemini-api', 'POST', '/v1beta/models/m:batchEmbedContents'],
    ['gemini-api', 'POST', '/v1beta/models/m:batchGenerateContent'],
    ['gemini-api', 'POST', '/v1beta/models/m:predict'],
    ['gemini-api', 'GET', '/v1beta/files'],
    ['gemini-api', 'POST', '/upload/v1beta/files'],
    ['gemini-api', 'DELETE', '/v1beta/files/abc'],
    ['gemini-api', 'GET', '/v1beta/cachedContents'],
    ['gemini-api', 'POST', '/v1beta/cachedContents'],
    ['gemini-api', 'PATCH', '/v1beta/cachedContents/c1'],
    ['gemini-api', 'GET', '/v1beta/tunedModels'],
    ['gemini-api', 'POST', '/v1beta/tunedModels/t:generateContent'],
    ['gemini-api', 'GET', '/v1beta/batches'],
    ['gemini-api', 'GET', '/v1beta/operations'],
    ['gemini-api', 'GET', '/v1beta/corpora'],
    // right path, wrong verb
    ['gemini-api', 'GET', '/v1beta/models/m:generateContent'],
    ['gemini-api', 'PUT', '/v1beta/models/m:generateContent'],
    ['gemini-api', 'DELETE', '/v1beta/models/m:generateContent'],
    ['gemini-api', 'OPTIONS', '/v1beta/models/m:generateContent'],
    ['gemini-api', 'HEAD', '/v1beta/models/m:generateContent'],
    // path tricks
    ['gemini-api', 'POST', '/v1beta/models/../files:generateContent'],
    ['gemini-api', 'POST', '/v1beta/files/../models/m:generateContent'],
    ['gemini-api', 'POST', '/v1beta/models/..:generateContent'],
    ['gemini-api', 'POST', '/v1beta/models/%2e%2e/files:generateContent'],
    ['gemini-api', 'POST', '/v1beta/models/m%2Fx:generateContent'],
    ['gemini-api', 'POST', '/v1beta/models/m%3AgenerateContent'],
    ['gemini-api', 'POST', '//v1beta/models/m:generateContent'],
    ['gemini-api', 'POST', '/v1beta//models/m:generateContent'],
    ['gemini-api', 'POST', '/v1beta/models/m:generateContent/'],
    ['gemini-api', 'POST', '/v1beta/./models/m:generateContent'],
    ['gemini-api', 'POST', '/v1beta\\models/m:generateContent'],
    ['gemini-api', 'POST', '/v1beta/models/m:generateContent#x'],
    ['gemini-api', 'POST', 'http://evil.example/v1beta/models/m:generateContent'],
    ['gemini-api', 'POST', '*'],
    ['gemini-api', 'POST', 'evil.example:443'],
    // query tricks: only key (dropped) and alt=sse on a stream
    ['gemini-api', 'POST', '/v1beta/models/m:generateContent?alt=sse'],
    ['gemini-api', 'POST', '/v1beta/models/m:streamGenerateContent?alt=json'],
    ['gemini-api', 'POST', '/v1beta/models/m:streamGenerateContent?alt=sse&alt=sse'],
    ['gemini-api', 'POST', '/v1beta/models/m:generateContent?access_token=x'],
    ['gemini-api', 'POST', '/v1beta/models/m:generateContent?userProject=other'],
    ['gemini-api', 'POST', '/v1beta/models/m:generateContent?$fields=x'],
    // one API's calls are not served on another's proxy
    ['gemini-api', 'POST', '/v1internal:generateContent'],
    ['vertex', 'POST', '/v1beta/models/m:generateContent'],
    ['code-assist', 'POST', '/v1beta/models/m:generateContent'],
    // Vertex beyond the publisher models
    ['vertex', 'POST', '/v1beta1/projects/p/locations/l/endpoints/e:predict'],
    ['vertex', 'GET', '/v1beta1/projects/p/locations/l/cachedContents'],
    ['vertex', 'POST', '/v1beta1/projects/p/locations/l/tuningJobs'],
    ['vertex', 'POST', '/v1beta1/projects/p/locations/l/publishers/other/models/m:generateContent'],
    ['vertex', 'DELETE', '/v1beta1/projects/p/locations/l/publishers/google/models/m:generateContent'],
    // Code Assist beyond a run's calls
    ['code-assist', 'GET', '/v1internal:getCodeAssistGlobalUserSetting'],
    ['code-assist', 'POST', '/v1internal:setCodeAssistGlobalUserSetting'],
    ['code-assist', 'POST', '/v1internal:embedContent'],
    ['code-assist', 'POST', '/v1internal/operations/x'],
    ['code-assist', 'GET', '/v1internal/operations/a/b'],
    ['code-assist', 'GET', '/v1internal:loadCodeAssist'],
  ] as const)('%s: %s %s is refused', (api, method, target) => {
    expect(modelRoute(api, method, target)).toEqual({ ok: false });
  });
});

describe('shownRefusal: what of a refused call may be printed', () => {
  it('keeps the path only, cut short, in a plain alphabet', () => {
    expect(shownRefusal('DELETE', '/v1beta/files/abc?key=secret', P)).toEqual({
      method: 'DELETE',
      path: '/v1beta/files/abc',
    });
    const long = shownRefusal('GET', `/v1beta/${'x'.repeat(300)}`, P);
    expect(long.path).toHaveLength(81);
    expect(long.path.endsWith('…')).toBe(true);
    expect(shownRefusal('GET', '/a b\t<img>`::error::x', P).path).toBe('/a_b__img__::error::x');
    expect(shownRefusal('G\rET', '/x', P).method).toBe('G_ET');
    expect(shownRefusal('GET', `/v1beta/${P}/files`, P).path).toBe('<path withheld>');
  });

  it('counts every refusal and keeps the first five', () => {
    const t: Refusals = { count: 0, first: [] };
    for (let i = 0; i < 7; i++) tallyRefusal(t, { method: 'GET', path: `/${i}` });
    expect(t.count).toBe(7);
    expect(t.first.map((c) => c.path)).toEqual(['/0', '/1', '/2', '/3', '/4']);
  });
});

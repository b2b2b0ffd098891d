import { FakeGemini, type RecordedRequest, type Step } from '../fake/gemini-api.js';

export type ProbeStep = Step;
export type ProbeFake = FakeGemini;

/** A fresh fake Gemini API playing `steps`, one per model call. */
export function startProbeFake(steps: ProbeStep[], description = 'probe'): Promise<ProbeFake> {
  return FakeGemini.start({ description, steps });
}

/** The request body as text (for "did the model see X" checks). */
export function bodyText(r: RecordedRequest): string {
  return typeof r.body === 'string' ? r.body : (JSON.stringify(r.body) ?? '');
}

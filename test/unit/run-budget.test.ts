import { describe, expect, it } from 'vitest';
import { TokenBudget } from '../../src/run/budget.js';
import { installFailure, isGitSource } from '../../src/gemini/extensions.js';

describe('TokenBudget', () => {
  it('trips once past the budget and turns the stop it caused into budget-exceeded', () => {
    const b = new TokenBudget(1000);
    expect(b.exceeded(1000)).toBe(false);
    expect(b.exceeded(1001)).toBe(true);
    expect(b.exceeded(10)).toBe(true);
    expect(b.settle({ status: 'timed-out', message: 'timed out after 60 s' }, 1500)).toEqual({
      status: 'budget-exceeded',
      message: 'token budget exceeded: 1500 tokens spent of 1000',
    });
    // The agent finished (or crashed) on its own: the budget did not stop it.
    expect(b.settle({ status: 'finished' }, 1500).status).toBe('finished');
    expect(b.settle({ status: 'crashed' }, 1500).status).toBe('crashed');
  });

  it('counts what the model proxy served, and a call it refused at the budget ends any run budget-exceeded', () => {
    const b = new TokenBudget(120);
    // The CLI's telemetry saw 44; the proxy served 404 (the agent called it directly).
    expect(b.exceeded(44, { tokens: 100, answers: 3, refusedAtLimit: 0 })).toBe(false);
    expect(b.exceeded(44, { tokens: 404, answers: 12, refusedAtLimit: 0 })).toBe(true);
    const refused = { tokens: 120, answers: 5, refusedAtLimit: 48 };
    const c = new TokenBudget(120);
    expect(c.exceeded(44, refused)).toBe(true);
    // The CLI then finished (or gave up) on its own: the budget stopped it all the same.
    for (const status of ['finished', 'crashed', 'model-unavailable', 'timed-out'] as const) {
      expect(c.settle({ status }, 44, refused)).toEqual({
        status: 'budget-exceeded',
        message:
          'token budget exceeded: 120 tokens spent of 120 (the model proxy refused 48 further model call(s))',
      });
    }
    // A wall of the model API's own keeps its name.
    expect(c.settle({ status: 'quota-exhausted' }, 44, refused).status).toBe('quota-exhausted');
    // Past the budget without a refusal, a run that finished first keeps its status.
    expect(b.settle({ status: 'finished' }, 44, { tokens: 404, answers: 12, refusedAtLimit: 0 }).status).toBe(
      'finished',
    );
  });

  it('never trips without a budget', () => {
    const b = new TokenBudget(0);
    expect(b.exceeded(1e9)).toBe(false);
    expect(b.settle({ status: 'timed-out' }, 1e9).status).toBe('timed-out');
  });
});

describe('extension sources', () => {
  it('tells git sources from local paths', () => {
    expect(isGitSource('https://github.com/o/ext.git')).toBe(true);
    expect(isGitSource('git@github.com:o/ext.git')).toBe(true);
    expect(isGitSource('./tools/ext')).toBe(false);
    expect(isGitSource('/opt/ext')).toBe(false);
  });

  it("reduces the installer's output to the reason, in one line", () => {
    const out = [
      'You have consented to the following:',
      'The extension you are about to install may have been created by a third-party developer and sourced from a public repository.',
      "Failed to clone Git repository from https://github.com/o/x.git Cloning into '.'...",
      "fatal: unable to access 'https://github.com/o/x.git/': Could not resolve host: github.com",
      '',
    ].join('\n');
    expect(installFailure(out)).toBe(
      "fatal: unable to access 'https://github.com/o/x.git/': Could not resolve host: github.com",
    );
  });
});

/**
 * The markdown rules held to GitHub's renderer, cmark-gfm (test/harness/cmark.ts): over the CommonMark spec's 652
 * examples and attack fragments,
 * - a trigger phrase counts exactly when cmark-gfm renders it as prose outside code, a quote and raw HTML;
 * - what the action publishes renders with no mention, no reference to an issue but the run's own, no link or
 *   image to a host the action did not write, no raw HTML from the agent, and the action's own text after it
 *   visible (not inside anything the agent opened);
 * and a seeded fuzz of fragment mixes does the same (its long run is `npm run bench -- publish-fuzz`).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findTriggerPhrase, matchTriggerPhrase, phraseIndex } from '../../src/markdown/phrase.js';
import { block, publishedBlock, publishedDocument } from '../../src/markdown/publish.js';
import { emptyTally, visibleText } from '../../src/markdown/visible.js';
import { cmarkHtml, cmarkTree, proseRuns } from '../harness/cmark.js';
import { PHRASE_FRAGMENTS, PUBLISH_FRAGMENTS, SPEC_EXAMPLES } from '../harness/markdown-corpus.js';
import { fuzzCases, publishViolations, CTX, SENTINEL } from '../harness/publish-oracle.js';

describe('the oracle', () => {
  it('is installed: cmark-gfm renders (the test fails, never skips, without it)', () => {
    expect(execFileSync('cmark-gfm', ['--version'], { encoding: 'utf8' })).toMatch(/cmark-gfm/);
    expect(cmarkHtml('*a*')).toBe('<p><em>a</em></p>\n');
  });
});

/** Whether cmark-gfm shows the phrase as a word of prose (see the module comment). */
function oracleAnywhere(markdown: string, phrase: string): boolean {
  return proseRuns(cmarkTree(markdown)).some(
    (r) => phraseIndex(r.value, phrase, { before: r.before, after: r.after }) >= 0,
  );
}

/** Whether the rendered document opens with a paragraph whose prose starts with the phrase and a blank. */
function oracleAtStart(markdown: string, phrase: string): boolean {
  const doc = cmarkTree(markdown);
  const first = doc.children[0];
  if (first?.name !== 'paragraph' || !['text', 'softbreak'].includes(first.children[0]?.name ?? ''))
    return false;
  const run = proseRuns(doc).find((r) => r.ancestors.at(-1) === first);
  return run !== undefined && phraseIndex(run.value, phrase, { before: true, after: run.after }, true) === 0;
}

interface PhraseCase {
  name: string;
  markdown: string;
  phrase: string;
}

function phraseCases(): PhraseCase[] {
  const cases: PhraseCase[] = [];
  for (const e of SPEC_EXAMPLES) {
    cases.push({ name: e.name, markdown: e.markdown, phrase: 'foo' });
    if (e.markdown.includes('foo'))
      cases.push({
        name: `${e.name}, foo as /gemini`,
        markdown: e.markdown.replaceAll('foo', '/gemini'),
        phrase: '/gemini',
      });
  }
  PHRASE_FRAGMENTS.forEach((f, i) =>
    cases.push({
      name: `attack ${i}: ${JSON.stringify(f)}`,
      markdown: f.replaceAll('P', '/gemini'),
      phrase: '/gemini',
    }),
  );
  return cases;
}

describe('trigger phrases, as cmark-gfm renders them', () => {
  const cases = phraseCases();

  it(`counts a phrase anywhere exactly where cmark-gfm shows it as prose (${cases.length} cases)`, () => {
    const differ = cases.filter(
      (c) => (findTriggerPhrase(c.markdown, c.phrase) !== undefined) !== oracleAnywhere(c.markdown, c.phrase),
    );
    // Never a run GitHub's page does not ask for.
    expect(
      differ.filter((c) => findTriggerPhrase(c.markdown, c.phrase) !== undefined).map((c) => c.name),
    ).toEqual([]);
    // The one known difference, on the safe side: CommonMark 0.31 (micromark) made <textarea> a raw-text HTML
    // block, and GitHub's cmark-gfm (0.29) reads the text after it as markdown: no run is started from there.
    expect(differ.map((c) => c.name)).toEqual([
      'spec 171 (HTML blocks)',
      'spec 171 (HTML blocks), foo as /gemini',
    ]);
  });

  it('counts a phrase that opens the comment exactly where cmark-gfm renders it first', () => {
    const wrong = cases
      .filter(
        (c) =>
          (matchTriggerPhrase(c.markdown, c.phrase) !== undefined) !== oracleAtStart(c.markdown, c.phrase),
      )
      .map((c) => `${c.name}: ours ${matchTriggerPhrase(c.markdown, c.phrase) !== undefined}`);
    expect(wrong).toEqual([]);
  });

  it('decides the same on the text the agent is given (hidden text removed first) for the attack fragments', () => {
    const attacks = cases.filter((c) => c.name.startsWith('attack'));
    const wrong = attacks
      .filter(
        (c) =>
          (findTriggerPhrase(visibleText(c.markdown, emptyTally()), c.phrase) !== undefined) !==
          oracleAnywhere(c.markdown, c.phrase),
      )
      .map((c) => c.name);
    expect(wrong).toEqual([]);
  });

  it('the attack fragments of the issue stay quiet: a lazy quote line, indented code, a fence ended by its item', () => {
    for (const quiet of [
      '> someone wrote:\n/gemini do it',
      '    /gemini indented',
      '- item\n  ```\n  /gemini x',
    ])
      expect(findTriggerPhrase(quiet, '/gemini')).toBeUndefined();
  });
});

describe('published text, as cmark-gfm renders it', () => {
  const inputs = [
    ...SPEC_EXAMPLES.map((e) => ({ name: e.name, text: e.markdown })),
    ...PUBLISH_FRAGMENTS.map((f, i) => ({ name: `attack ${i}: ${JSON.stringify(f)}`, text: f })),
  ];

  it(`a published block has nothing live and ends before the action's text (${inputs.length} inputs)`, () => {
    const wrong: string[] = [];
    for (const { name, text } of inputs) {
      const out = publishedBlock(text, CTX);
      const problems = publishViolations(`${out}\n\n${SENTINEL}`, { agentHtml: false });
      if (problems.length) wrong.push(`${name}: ${problems.join('; ')}\n  published: ${JSON.stringify(out)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("the last check over a whole body leaves nothing live in text embedded raw, and keeps the action's markup", () => {
    const wrong: string[] = [];
    for (const { name, text } of inputs) {
      const body = `## Summary\n\n<details><summary>Tool calls</summary>\n\n- one\n\n</details>\n\n${text}\n\n${SENTINEL}`;
      const out = publishedDocument(body, CTX);
      // The action's text after raw text may be inside the raw text's code block: that is what publishedBlock is for.
      const problems = publishViolations(out, { agentHtml: true, sameRepoRefs: true, sentinel: false });
      if (problems.length) wrong.push(`${name}: ${problems.join('; ')}\n  published: ${JSON.stringify(out)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a body built from published blocks passes the last check unchanged, the action's text after each block", () => {
    const wrong: string[] = [];
    for (const { name, text } of inputs) {
      const body = `## Summary\n\n<details><summary>Final answer</summary>${block(publishedBlock(text, CTX))}</details>${block(SENTINEL)}`;
      if (publishedDocument(body, CTX) !== body) wrong.push(`${name}: changed by the last check`);
      const problems = publishViolations(body, { agentHtml: true });
      if (problems.length)
        wrong.push(`${name}: ${problems.join('; ')}\n  published: ${JSON.stringify(body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps what the action itself writes: its details, its run link, its own issue and pull request', () => {
    const own =
      '<details><summary>Tools</summary>\n\n- `x`\n\n</details>\n\n[run](https://github.com/acme/widgets/actions/runs/2) updated #12, Closes #1';
    expect(publishedDocument(own, CTX)).toBe(own);
  });

  it('a seeded fuzz of fragment mixes (300 cases) finds no escape', () => {
    const wrong: string[] = [];
    for (const text of fuzzCases(20261206, 300)) {
      const out = publishedBlock(text, CTX);
      const problems = publishViolations(`${out}\n\n${SENTINEL}`, { agentHtml: false });
      if (problems.length) wrong.push(`${JSON.stringify(text)}: ${problems.join('; ')}`);
    }
    expect(wrong).toEqual([]);
  });
});

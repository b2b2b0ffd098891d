/**
 * What "nothing live" means for published text, judged on cmark-gfm's tree (cmark.ts) with rules written here,
 * independently of src/markdown: no mention or reference to an issue other than the run's own in prose GitHub
 * filters (outside code and links), no link or image to a host the action did not write, no raw HTML of the
 * agent's (or only the action's own tags, balanced), and the action's sentinel line visible at the top level.
 * Also the seeded fragment mixes of the fuzz test and benchmark.
 */
import { cmarkTree, proseRuns, walkXml, type XmlNode } from './cmark.js';
import { PHRASE_FRAGMENTS, PUBLISH_FRAGMENTS, SPEC_EXAMPLES } from './markdown-corpus.js';

export const CTX = { serverUrl: 'https://github.com', owner: 'acme', repo: 'widgets', ownIssue: 1 };
export const SENTINEL = 'ACTION SENTINEL: the action wrote this line.';

interface Where {
  owner: string;
  repo: string;
  ownIssue?: number;
  /** Other numbers of the repository the action itself links (its pull request). */
  alsoOwn?: readonly number[];
}

/** A destination the action could have written: the own server (not another issue), relative, or mail. */
function allowedDestination(dest: string, w: Where): boolean {
  if (/^mailto:/i.test(dest)) return true;
  if (dest.startsWith('//')) return false;
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(dest);
  if (absolute && !dest.toLowerCase().startsWith('https://github.com/')) return false;
  const path = absolute ? dest.slice('https://github.com'.length) : `/${w.owner}/${w.repo}/issues/${dest}`;
  const issue = /^\/([^/]+\/[^/]+)\/(?:issues|pull|pulls|discussions)\/(\d+)/i.exec(path);
  return (
    !issue ||
    (issue[1]!.toLowerCase() === `${w.owner}/${w.repo}`.toLowerCase() &&
      [w.ownIssue, ...(w.alsoOwn ?? [])].includes(Number(issue[2])))
  );
}

/**
 * Mentions and references GitHub would act on in a run of prose (own-issue references removed first).
 * `sameRepoRefs`: a bare `#12` of the repository stays allowed (the action links its own pull requests) unless a
 * closing keyword stands before it.
 */
function liveIn(value: string, w: Where, sameRepoRefs = false): string[] {
  const found: string[] = [];
  const mention = /(?:^|[^A-Za-z0-9_])(@[A-Za-z0-9][\w-]*)/g;
  for (const m of value.matchAll(mention)) found.push(`mention ${m[1]}`);
  const own = w.ownIssue === undefined ? '(?!)' : String(w.ownIssue);
  const rest = value.replace(
    new RegExp(`(?:${w.owner}/${w.repo})?#${own}(?!\\d)|GH-${own}(?!\\d)`, 'gi'),
    '',
  );
  for (const m of rest.matchAll(/[\w./-]*#\d+|GH-\d+/gi)) {
    const keyword = /(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*$/i.test(rest.slice(0, m.index));
    if (sameRepoRefs && !keyword && /^(?:#|GH-)\d+$/i.test(m[0])) continue;
    found.push(`reference ${m[0]}`);
  }
  return found;
}

/** The problems of a published document (empty when it is clean). `agentHtml`: the action's own tags may stay. */
export function publishViolations(
  markdown: string,
  o: { agentHtml: boolean; sameRepoRefs?: boolean; sentinel?: boolean; where?: Where; keep?: boolean },
): string[] {
  const w = o.where ?? CTX;
  const doc = cmarkTree(markdown, { keep: o.keep !== false });
  const problems: string[] = [];
  for (const run of proseRuns(doc, { inQuotes: true, inLinks: false }))
    problems.push(...liveIn(run.value, w, o.sameRepoRefs));
  let openDetails = 0;
  walkXml(doc, (n: XmlNode) => {
    if ((n.name === 'link' || n.name === 'image') && !allowedDestination(n.attrs.destination ?? '', w))
      problems.push(`${n.name} to ${n.attrs.destination}`);
    if (n.name === 'html_block' || n.name === 'html_inline') {
      if (!o.agentHtml) problems.push(`raw HTML ${JSON.stringify(n.text.slice(0, 40))}`);
      for (const tag of n.text.matchAll(/<(\/?)([a-z][a-z0-9-]*)/gi)) {
        const name = tag[2]!.toLowerCase();
        if (
          ![
            'details',
            'summary',
            'br',
            'code',
            'sub',
            'sup',
            'kbd',
            'b',
            'i',
            'em',
            'strong',
            'p',
            'hr',
          ].includes(name)
        )
          problems.push(`tag <${tag[1]}${name}>`);
        if (name === 'details') openDetails += tag[1] ? -1 : 1;
      }
      // Text inside raw HTML is filtered by GitHub too, unless inside <code>.
      for (const t of n.text.replace(/<code>[\s\S]*?<\/code>/g, '').split(/<[^>]*>/))
        problems.push(...liveIn(t, w, o.sameRepoRefs));
    }
    if (n.name === 'paragraph' && proseRuns(n).some((r) => r.value.includes(SENTINEL)) && openDetails !== 0)
      problems.push('the action text is inside a <details> the agent opened');
    return true;
  });
  const last = doc.children.at(-1);
  const lastText =
    last?.name === 'paragraph'
      ? proseRuns(last)
          .map((r) => r.value)
          .join('')
      : '';
  if (o.sentinel !== false && lastText !== SENTINEL)
    problems.push(`the action's line is not a paragraph of its own (last block: ${last?.name})`);
  return problems;
}

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JOINS = [
  '\n',
  '\n\n',
  ' ',
  '',
  '\n- ',
  '\n> ',
  '\n    ',
  '\n1. ',
  '\n```\n',
  '\n<div>\n',
  ' <span>',
  '\n| a |\n|---|\n| ',
];

/** `n` texts, each a mix of 1–5 pieces (attack fragments, spec examples, trigger fragments) with joints that open containers. */
export function fuzzCases(seed: number, n: number): string[] {
  const rnd = prng(seed);
  const pool = [
    ...PUBLISH_FRAGMENTS,
    ...PHRASE_FRAGMENTS.map((f) => f.replaceAll('P', '@bob fixes #3')),
    ...SPEC_EXAMPLES.map((e) => e.markdown),
  ];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let text = pick(pool);
    const parts = 1 + Math.floor(rnd() * 5);
    for (let j = 1; j < parts; j++) text += pick(JOINS) + pick(pool);
    out.push(text);
  }
  return out;
}

/**
 * BENCH publish-fuzz-escapes: the long run of the differential fuzz of published text (the CI test runs 300 cases
 * of a fixed seed, test/integration/markdown-oracle.test.ts): mixes of attack fragments, trigger fragments and the
 * CommonMark spec's examples, each published as an agent's block and rendered by GitHub's renderer (cmark-gfm) with
 * the action's own line after it. An escape is a case whose rendering has anything live (a mention, a reference
 * to another issue, a link or image to another host, raw HTML) or the action's line not at the top level. The
 * figure is the number of escapes (0 is the bar), with the cases per second and, as a baseline, the cases per
 * second of rendering alone. `FUZZ_CASES` sets the number of cases (default 3,000); `FUZZ_SEED` the seed.
 * Runs alone: `node --import tsx test/bench/publish-fuzz.bench.ts`.
 */
import { publishedBlock } from '../../src/markdown/publish.js';
import { cmarkTree } from '../harness/cmark.js';
import { CTX, fuzzCases, publishViolations, SENTINEL } from '../harness/publish-oracle.js';
import { bench } from './lib.js';

const cases = Number(process.env.FUZZ_CASES ?? 3000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const texts = fuzzCases(seed, cases);

let escapes = 0;
const t0 = performance.now();
for (const text of texts) {
  const problems = publishViolations(`${publishedBlock(text, CTX)}\n\n${SENTINEL}`, {
    agentHtml: false,
    keep: false,
  });
  if (problems.length > 0) {
    escapes++;
    if (escapes <= 5) console.log(`# escape (seed ${seed}): ${JSON.stringify(text)}: ${problems.join('; ')}`);
  }
}
const fuzzPerS = cases / ((performance.now() - t0) / 1000);

// The baseline: rendering the raw texts alone (a new text each time, so the oracle's cache does not answer).
const t1 = performance.now();
for (const text of texts) cmarkTree(`${text}\n\n<!-- ${Math.random()} -->`, { keep: false });
const renderPerS = cases / ((performance.now() - t1) / 1000);

console.log(
  `# publish-fuzz-escapes: ${cases} fuzz cases of seed ${seed}, each published and rendered by cmark-gfm`,
);
// Zero is the figure wanted, so it is printed as measured (bench() takes only positive figures).
console.log(`BENCH publish-fuzz-escapes ${escapes} cases`);
bench('publish-fuzz-cases-per-s', fuzzPerS, 'cases/s', 'publish and check one case (cmark-gfm renders it)', {
  baseline: renderPerS,
  ratio: fuzzPerS / renderPerS,
});
if (escapes > 0) process.exitCode = 1;

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKED_VERSIONS, profileFor } from '../../src/gemini/cli-profile.js';
import { probeProfile } from '../../src/probe/expectations.js';
import { PROBES, renderDriftTable, selectProbes } from '../../src/probe/index.js';
import { parseOtelEvents, splitConcatenatedJson } from '../../src/probe/otel.js';
import { compact, turns } from '../../src/probe/probes/util.js';

const COMPAT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'compat', 'gemini', 'compat.md');

interface Row {
  id: string;
  behaviour: string;
  provenance: string;
  probes: string[];
  /** The per-version column (header = a version) of the row, by version. */
  versions: Record<string, string>;
  notes: string;
}

/**
 * The rows of every table whose header starts `| id | behaviour | provenance | probe |`, then one column per
 * version, then notes.
 */
function parseCompatRows(markdown: string): Row[] {
  const rows: Row[] = [];
  let inTable = false;
  let versionColumns: string[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.trim().startsWith('|') ? splitRow(line) : undefined;
    if (!cells) {
      inTable = false;
      continue;
    }
    if (cells[0] === 'id' && cells[1] === 'behaviour' && cells[2] === 'provenance' && cells[3] === 'probe') {
      inTable = true;
      versionColumns = cells.slice(4).filter((c) => /^\d+\.\d+\.\d+$/.test(c));
      continue;
    }
    if (!inTable || /^-+$/.test(cells[0] ?? '')) continue;
    rows.push({
      id: cells[0] ?? '',
      behaviour: cells[1] ?? '',
      provenance: cells[2] ?? '',
      probes: (cells[3] ?? '')
        .split(',')
        .map((s) => s.replace(/`/g, '').trim())
        .filter((s) => s && s !== '—' && s !== '-'),
      versions: Object.fromEntries(versionColumns.map((v, i) => [v, cells[4 + i] ?? ''])),
      notes: cells[4 + versionColumns.length] ?? '',
    });
  }
  return rows;
}

function splitRow(line: string): string[] {
  // `\|` inside a cell is an escaped pipe, not a separator.
  const parts = line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/);
  return parts.map((c) => c.trim());
}

describe('compat/gemini/compat.md', () => {
  const markdown = readFileSync(COMPAT, 'utf8');
  const rows = parseCompatRows(markdown);
  const names = new Set(PROBES.map((p) => p.name));

  it('is pinned to 0.42.0 and has the behaviour tables', () => {
    expect(markdown).toMatch(/pinned to[^\n]*0\.42\.0/i);
    expect(rows.length).toBeGreaterThan(40);
  });

  it('uses unique ids and a known provenance on every row', () => {
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of rows) {
      expect(r.provenance, r.id).toMatch(
        /^(probe|bundle \(`?[\w./-]+\.(js|md)`?(, `?[\w./-]+\.(js|md)`?)*\)|docs|seed only)$/,
      );
    }
  });

  it('names an existing probe on every probe row, and only there', () => {
    for (const r of rows) {
      if (r.provenance === 'probe') {
        expect(r.probes.length, `${r.id} needs a probe name`).toBeGreaterThan(0);
        for (const p of r.probes) expect(names.has(p), `${r.id} names unknown probe '${p}'`).toBe(true);
      } else {
        expect(r.probes, `${r.id} is not a probe row`).toEqual([]);
      }
    }
  });

  it('has a column per checked version in every behaviour table, filled on every probe row', () => {
    for (const r of rows) {
      expect(Object.keys(r.versions), `${r.id} version columns`).toEqual([...CHECKED_VERSIONS]);
      for (const v of CHECKED_VERSIONS) {
        expect(r.versions[v], `${r.id} ${v}`).not.toBe('');
        if (r.provenance === 'probe')
          expect(r.versions[v], `${r.id} ${v}`).toMatch(
            /^(pass|pass, by its profile \(.+\)|\*\*drift\*\* \(.+\))$/,
          );
      }
    }
    // the 0.61.0 column names the profile on the rows whose expectation differs there
    const quota = rows.find((r) => r.probes.includes('quota-headless'));
    expect(quota?.versions['0.61.0']).toBe('pass, by its profile (exit 173)');
  });

  it('lists every probe of the suite', () => {
    const documented = new Set(rows.flatMap((r) => r.probes));
    const missing = PROBES.map((p) => p.name).filter((n) => !documented.has(n));
    expect(missing).toEqual([]);
  });

  it('records the drift table for a newer version with the command that made it', () => {
    const drift = markdown.slice(markdown.indexOf('## Known drift'));
    expect(drift).toMatch(/npm run probe -- --version \d+\.\d+\.\d+/);
    // prettier pads table cells, so allow any spacing
    expect(drift).toMatch(
      /\|\s*probe\s*\|\s*behaviour\s*\|\s*expected \(0\.42\.0\)\s*\|\s*observed\s*\|\s*result\s*\|\s*result \(0\.61\.0 profile\)\s*\|/,
    );
  });
});

describe('probe suite helpers', () => {
  it('has unique kebab-case probe names', () => {
    const names = PROBES.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('selects probes by name and reports unknown ones', () => {
    expect(selectProbes([]).probes).toHaveLength(PROBES.length);
    const sel = selectProbes(['version', 'nope']);
    expect(sel.probes.map((p) => p.name)).toEqual(['version']);
    expect(sel.unknown).toEqual(['nope']);
  });

  it('splits pretty-printed JSON objects back to back, braces inside strings included, torn tail dropped', () => {
    const text = `${JSON.stringify({ a: '{not}', b: [1, { c: '"}' }] }, null, 2)}\n${JSON.stringify({ d: 2 }, null, 2)}\n{ "torn": `;
    expect(splitConcatenatedJson(text)).toEqual([{ a: '{not}', b: [1, { c: '"}' }] }, { d: 2 }]);
  });

  it('reads log events and groups them into turns', () => {
    const ev = (name: string, ts: string) =>
      JSON.stringify(
        { hrTime: [0, 0], attributes: { 'event.name': `gemini_cli.${name}`, 'event.timestamp': ts } },
        null,
        2,
      );
    const text = [
      ev('config', '2026-01-01T00:00:00Z'),
      ev('user_prompt', '2026-01-01T00:00:01Z'),
      ev('tool_call', '2026-01-01T00:00:02Z'),
      ev('tool_call', '2026-01-01T00:00:03Z'),
      ev('conversation_finished', '2026-01-01T00:00:04Z'),
      JSON.stringify({ resource: {}, scopeMetrics: [] }),
    ].join('\n');
    const events = parseOtelEvents(text);
    expect(events.map((e) => e.name)).toHaveLength(5);
    expect(events[1]?.at).toBe(Date.parse('2026-01-01T00:00:01Z'));
    expect(turns(events)).toEqual([['user_prompt', 'tool_call', 'tool_call', 'conversation_finished']]);
    expect(compact(turns(events)[0] ?? [])).toBe('user_prompt tool_call×2 conversation_finished');
  });

  it("takes each probe's expectation from the profile: 0.61.0 differs exactly where it is known to", () => {
    const expectedOf = (version: string) => {
      const p = probeProfile(profileFor(version, { allowUnchecked: false }));
      return new Map(
        PROBES.map((x) => [x.name, typeof x.expected === 'string' ? x.expected : x.expected(p)]),
      );
    };
    const old = expectedOf('0.42.0');
    const latest = expectedOf('0.61.0');
    const differs = PROBES.map((p) => p.name).filter((n) => old.get(n) !== latest.get(n));
    expect(differs.sort()).toEqual([
      'escape-after-tool-call',
      'quota-headless',
      'telemetry-latency',
      'transcript-fold',
      'version',
    ]);
    expect(old.get('quota-headless')).toMatch(/^exit 1;/);
    expect(latest.get('quota-headless')).toMatch(/^exit 173 \(HTTP 429 & 0xFF\);/);
    expect(old.get('telemetry-latency')).toContain('< 1000 ms');
    expect(latest.get('telemetry-latency')).toContain('< 6000 ms');
    expect(latest.get('transcript-fold')).toContain('$set carries a messages snapshot; 2 user records');
    expect(latest.get('version')).toBe('0.61.0');
  });

  it('renders a drift table that marks drift and escapes pipes', () => {
    const table = renderDriftTable(
      [
        { name: 'a', behaviour: 'x | y', expected: 'e', observed: 'e', pass: true, durationMs: 1 },
        { name: 'b', behaviour: 'z', expected: 'e', observed: 'o', pass: false, durationMs: 1 },
      ],
      '0.42.0',
    );
    expect(table).toContain('| a | x \\| y | e | e | pass |');
    expect(table).toContain('| b | z | e | o | **DRIFT** |');
    expect(table).toContain('1 of 2 probes pass; 1 drifted.');
  });
});

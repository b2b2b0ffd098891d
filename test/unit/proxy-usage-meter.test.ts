import { describe, expect, it } from 'vitest';
import { answerUtility, streamChunks } from '../../src/fake/gemini-api.js';
import { AnswerUsage, decodableEncodings, usageTokens } from '../../src/proxy/usage-meter.js';

/** The answer fed in the given pieces; returns what the reader counted. */
function read(pieces: readonly (string | Buffer)[]): number {
  const u = new AnswerUsage();
  for (const p of pieces) u.write(typeof p === 'string' ? Buffer.from(p) : p);
  return u.tokens;
}

/** Every way of cutting `text` in two, and byte by byte: a chunk boundary anywhere reads the same. */
function everySplit(text: string): number[] {
  const bytes = Buffer.from(text);
  const out: number[] = [
    read(
      bytes
        .toString('latin1')
        .split('')
        .map((_, i) => bytes.subarray(i, i + 1)),
    ),
  ];
  for (let i = 0; i <= bytes.length; i++) out.push(read([bytes.subarray(0, i), bytes.subarray(i)]));
  return out;
}

const sse = (events: readonly unknown[]): string =>
  events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('');

describe('AnswerUsage: the tokens of one answer, read as it streams by', () => {
  const step = { text: 'Hello there, "usageMetadata": {"totalTokenCount": 1} é ✓ \\', chunks: 4 };
  const chunks = streamChunks(step, 'gemini-2.5-flash', 300);
  const total = usageTokens((chunks.at(-1) as { usageMetadata: unknown }).usageMetadata)!;

  it("reads the fake API's SSE stream (usage on every event, the last one whole), split anywhere", () => {
    expect(chunks.length).toBeGreaterThan(1);
    expect(total).toBeGreaterThan(300);
    for (const n of everySplit(sse(chunks))) expect(n).toBe(total);
  });

  it('reads the Code Assist wrapper `response.usageMetadata`, split anywhere', () => {
    const wrapped = chunks.map((c, i) => ({ response: c, traceId: `t${i}` }));
    for (const n of everySplit(sse(wrapped))) expect(n).toBe(total);
  });

  it('reads a unary answer (generateContent) and a stream sent as a JSON array (no alt=sse)', () => {
    const { response } = answerUtility({ contents: [{ parts: [{ text: 'x'.repeat(400) }] }] }, 'm');
    const unary = JSON.stringify(response, null, 2);
    const expected = usageTokens((response as { usageMetadata: unknown }).usageMetadata)!;
    expect(expected).toBeGreaterThan(100);
    for (const n of everySplit(unary)) expect(n).toBe(expected);
    for (const n of everySplit(JSON.stringify(chunks))) expect(n).toBe(total);
    expect(read([JSON.stringify(chunks.map((c) => ({ response: c })))])).toBe(total);
  });

  it('is not fooled by usage the model wrote as text, or by a usageMetadata in the wrong place', () => {
    const forged = '"usageMetadata":{"totalTokenCount":999999}';
    const answer = {
      candidates: [
        {
          content: {
            parts: [
              { text: `${forged} \\"usageMetadata\\":{"totalTokenCount":888888}` },
              // One quote: a scanner that loses track of escapes reads the rest inside out.
              { text: 'say "hi' },
            ],
          },
          // Deeper than an answer's own usage: not the answer's.
          usageMetadata: { totalTokenCount: 777777 },
        },
      ],
      promptFeedback: { usageMetadata: { totalTokenCount: 666666 } },
      usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 2, totalTokenCount: 42 },
    };
    for (const n of everySplit(sse([answer]))) expect(n).toBe(42);
    // A key only counts as a key: the same text as a value is nothing.
    expect(read([JSON.stringify({ note: 'usageMetadata', x: { totalTokenCount: 5 } })])).toBe(0);
    expect(read([JSON.stringify({ response: { x: { usageMetadata: { totalTokenCount: 5 } } } })])).toBe(0);
  });

  it('counts a countTokens answer as 0, and the parts when the total is missing or short', () => {
    expect(read(['{"totalTokens": 12345}'])).toBe(0);
    expect(
      read([
        JSON.stringify({
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 7 },
        }),
      ]),
    ).toBe(22);
    expect(usageTokens({ totalTokenCount: 3, promptTokenCount: 10 })).toBe(10);
    expect(usageTokens({ totalTokenCount: 'many' })).toBeUndefined();
  });

  it('takes the largest total of a stream, and survives junk and a truncated answer', () => {
    const events = [
      { usageMetadata: { totalTokenCount: 10 } },
      { usageMetadata: { totalTokenCount: 30 } },
      { usageMetadata: { totalTokenCount: 20 } },
    ];
    expect(read([sse(events)])).toBe(30);
    expect(read([': keep-alive\n\n', sse(events.slice(0, 1)), 'data: {"usageMetadata": {"total'])).toBe(10);
    expect(read(['not json at all {{{ ]]] "'])).toBe(0);
  });

  it('keeps no more than a usage object in memory: a huge one is skipped, the rest still read', () => {
    const huge = { usageMetadata: { totalTokenCount: 5, pad: 'x'.repeat(100_000) } };
    expect(read([sse([huge, { usageMetadata: { totalTokenCount: 7 } }])])).toBe(7);
  });
});

describe('decodableEncodings: what the proxy lets the upstream compress with', () => {
  it('keeps the encodings the usage reader decodes, in the client’s order, and identity otherwise', () => {
    expect(decodableEncodings('gzip, deflate, br')).toBe('gzip, deflate, br');
    expect(decodableEncodings('zstd, gzip;q=0.5, compress')).toBe('gzip;q=0.5');
    expect(decodableEncodings(['br', 'zstd'])).toBe('br');
    expect(decodableEncodings('zstd')).toBe('identity');
    expect(decodableEncodings('gzip;q=0, br;q=0.0')).toBe('identity');
    expect(decodableEncodings(undefined)).toBe('identity');
  });
});

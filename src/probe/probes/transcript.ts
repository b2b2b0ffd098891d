import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { bodyText } from '../fake.js';
import type { Probe } from '../types.js';
import {
  PROMPT_BOX,
  compact,
  isRecord,
  postureArgs,
  probeSessionId,
  readJsonLines,
  recordKind,
  sleep,
} from './util.js';

const SESSION_FILE = /^session-\d{4}-\d\d-\d\dT\d\d-\d\d-(.{1,8})\.jsonl$/;

export const eagerBirthProbe: Probe = {
  name: 'transcript-eager-birth',
  behaviour:
    'Interactive start writes the transcript header before any turn, at tmp/<slug>/chats/session-<UTC minute>-<sid8>.jsonl',
  expected:
    'file born with the header {sessionId,projectHash,startTime,lastUpdated,kind:"main"} and no message record; 0 model requests; name carries the first 8 chars of --session-id',
  async run(ctx) {
    const fake = await ctx.startFake([{ text: 'unused' }]);
    const sid = probeSessionId('eagerbir');
    const tui = await ctx.interactive(postureArgs(sid));
    const files = await ctx.waitFor(async () => {
      const f = await ctx.sessionFiles();
      return f.length > 0 ? f : undefined;
    });
    await tui.waitForScreen(PROMPT_BOX, 15_000);
    if (!files) return { observed: 'no session file appeared', pass: false };
    const rel = files[0] as string;
    const [slug, , name] = rel.split('/');
    const records = await readJsonLines(join(ctx.projectsTmp(), rel));
    const header = records[0];
    const keys = isRecord(header) ? Object.keys(header).sort().join(',') : '?';
    const m = SESSION_FILE.exec(name ?? '');
    const asked = fake.modelRequests().length;
    return {
      observed: `${rel}; records: ${compact(records.map(recordKind))}; header keys ${keys}; ${asked} model requests`,
      pass:
        files.length === 1 &&
        slug === ctx.worktreeBase() &&
        m?.[1] === sid.slice(0, 8) &&
        // 0.61.0 adds a `$set` before any turn: harmless to the fold, so only messages count as drift.
        records.every((r) => recordKind(r) === 'header' || recordKind(r) === '$set') &&
        isRecord(header) &&
        header.sessionId === sid &&
        header.kind === 'main' &&
        keys === 'kind,lastUpdated,projectHash,sessionId,startTime' &&
        asked === 0,
    };
  },
};

export const projectSlugProbe: Probe = {
  name: 'projects-json-slug',
  behaviour:
    'The project dir under tmp/ is a slug of the worktree basename, registered in <home>/.gemini/projects.json',
  expected:
    '{"projects":{"<abs worktree>":"probe-work-tree"}} for basename "Probe_Work.Tree"; chats under tmp/probe-work-tree/',
  worktreeName: 'Probe_Work.Tree',
  async run(ctx) {
    await ctx.startFake([{ text: 'ok' }]);
    const res = await ctx.headless(['--prompt=hello', ...postureArgs(probeSessionId('slug'))]);
    let projects: unknown;
    try {
      projects = JSON.parse(await readFile(join(ctx.home, '.gemini', 'projects.json'), 'utf8'));
    } catch {
      projects = undefined;
    }
    const map = isRecord(projects) && isRecord(projects.projects) ? projects.projects : {};
    const slug = map[ctx.worktree];
    const files = await ctx.sessionFiles();
    return {
      observed: `exit ${res.exitCode}; projects.json maps the worktree to ${JSON.stringify(slug)}; session files: ${files.join(', ') || 'none'}`,
      pass:
        res.exitCode === 0 &&
        slug === 'probe-work-tree' &&
        files.length === 1 &&
        files[0]?.startsWith('probe-work-tree/chats/') === true,
    };
  },
};

export const foldProbe: Probe = {
  name: 'transcript-fold',
  behaviour:
    'Transcript grammar: JSONL header, user, gemini, $set; a gemini record is re-appended with the SAME id when its toolCalls land',
  expected: (p) =>
    `header, user, gemini (content ""), gemini again with the same id + toolCalls, gemini (answer); ${
      p.transcriptSnapshots ? '$set carries a messages snapshot' : '$set = metadata only (no messages)'
    }; ${
      p.toolResultsAsUserRecords
        ? '2 user records (the prompt + function responses)'
        : '1 user record (function responses unrecorded)'
    }; fold = last writer wins by id`,
  async run(ctx) {
    await ctx.startFake([
      { functionCalls: [{ name: 'list_directory', args: { dir_path: '.' } }] },
      { text: 'FOLD-DONE' },
    ]);
    const res = await ctx.headless(['--prompt=look around', ...postureArgs(probeSessionId('fold'))]);
    const files = await ctx.sessionFiles();
    if (files.length !== 1)
      return { observed: `exit ${res.exitCode}; ${files.length} session files`, pass: false };
    const records = await readJsonLines(join(ctx.projectsTmp(), files[0] as string));
    const messages = records.filter(
      (r): r is Record<string, unknown> => isRecord(r) && typeof r.id === 'string',
    );
    const seen = new Map<string, Record<string, unknown>[]>();
    for (const m of messages) seen.set(m.id as string, [...(seen.get(m.id as string) ?? []), m]);
    const repeated = [...seen.values()].filter((v) => v.length > 1);
    const reappendWithTools = repeated.some(
      (v) =>
        v[0]?.type === 'gemini' &&
        !('toolCalls' in (v[0] ?? {})) &&
        Array.isArray(v[v.length - 1]?.toolCalls),
    );
    const folded = [...seen.values()].map((v) => v[v.length - 1] as Record<string, unknown>);
    const lastAnswer = folded[folded.length - 1];
    // A fold that merges `$set` into metadata must only ever see metadata there.
    const setKeys = new Set(
      records.flatMap((r) => (isRecord(r) && isRecord(r.$set) ? Object.keys(r.$set) : [])),
    );
    const users = folded.filter((m) => m.type === 'user').length;
    return {
      observed: `exit ${res.exitCode}; records: ${compact(records.map(recordKind))}; ${repeated.length} id(s) re-appended${reappendWithTools ? ' (gemini + toolCalls)' : ''}; $set keys: ${[...setKeys].sort().join(',')}; ${users} user record(s); folded ${folded.length} messages, last "${String(lastAnswer?.content)}"`,
      pass:
        res.exitCode === 0 &&
        recordKind(records[0]) === 'header' &&
        reappendWithTools &&
        records.some((r) => recordKind(r) === '$set') &&
        setKeys.has('messages') === ctx.profile.transcriptSnapshots &&
        users === (ctx.profile.toolResultsAsUserRecords ? 2 : 1) &&
        lastAnswer?.content === 'FOLD-DONE',
    };
  },
};

export const clearRotatesProbe: Probe = {
  name: 'clear-rotates-transcript',
  behaviour: '`/clear` starts a new transcript file with a new session id; the old file is left as it was',
  expected:
    'a second session-*.jsonl appears with a fresh sessionId (not --session-id); the first file is unchanged',
  async run(ctx) {
    await ctx.startFake([{ text: 'BEFORE-CLEAR' }]);
    const sid = probeSessionId('clear');
    const tui = await ctx.interactive([...postureArgs(sid), 'first turn']);
    await ctx.waitForTelemetry((ev) => ev.some((e) => e.name === 'gemini_cli.conversation_finished'));
    const before = await ctx.sessionFiles();
    if (before.length !== 1) return { observed: `${before.length} session files before /clear`, pass: false };
    const firstPath = join(ctx.projectsTmp(), before[0] as string);
    const firstBefore = await readFile(firstPath, 'utf8');
    await tui.driver.typeText('/clear');
    const after = await ctx.waitFor(async () => {
      const f = await ctx.sessionFiles();
      return f.length > 1 ? f : undefined;
    }, 10_000);
    await sleep(500);
    const firstAfter = await readFile(firstPath, 'utf8');
    const newRel = (after ?? []).find((f) => f !== before[0]);
    const header = newRel ? (await readJsonLines(join(ctx.projectsTmp(), newRel)))[0] : undefined;
    const newSid = isRecord(header) ? String(header.sessionId) : undefined;
    const unchanged = firstAfter === firstBefore;
    return {
      observed: newRel
        ? `new file ${basename(newRel)} with sessionId ${newSid === sid ? 'SAME as --session-id' : 'fresh'}; old file ${unchanged ? 'unchanged' : 'CHANGED'}`
        : 'no new file after /clear',
      pass: newRel !== undefined && newSid !== undefined && newSid !== sid && unchanged,
    };
  },
};

export const resumeAcrossHomesProbe: Probe = {
  name: 'resume-across-homes',
  behaviour:
    'A saved session file placed in a FRESH home under tmp/<worktree basename>/chats/ resumes with --resume <id> from another path',
  expected:
    'exit 0; the resumed request carries the first question and answer; the same file is appended to; the CLI also starts a file of its own for the current minute that holds no message',
  timeoutMs: 40_000,
  async run(ctx) {
    const fake = await ctx.startFake([{ text: 'FIRST-ANSWER' }, { text: 'SECOND-ANSWER' }]);
    const sid = probeSessionId('resume');
    const first = await ctx.headless(['--prompt=FIRST-QUESTION', ...postureArgs(sid)]);
    const files = await ctx.sessionFiles();
    if (first.exitCode !== 0 || files.length !== 1)
      return { observed: `first run exit ${first.exitCode}, ${files.length} files`, pass: false };
    const home2 = await ctx.writeHome(join(ctx.root, 'home2'));
    const worktree2 = await ctx.initRepo(join(ctx.root, 'elsewhere', ctx.worktreeBase()));
    const chats2 = join(ctx.projectsTmp(home2), ctx.worktreeBase(), 'chats');
    await mkdir(chats2, { recursive: true });
    // Saved hours ago, as a follow-up's file is: named for an earlier minute than the one the resumed CLI starts
    // in. (In the same minute the CLI's own new file has this very name and its header lands in this file.)
    const saved = join(
      chats2,
      basename(files[0] as string).replace(
        /^session-[^-]+-\d\d-\d\dT\d\d-\d\d-/,
        'session-2000-01-01T00-00-',
      ),
    );
    await copyFile(join(ctx.projectsTmp(), files[0] as string), saved);
    const sizeBefore = (await readFile(saved, 'utf8')).length;
    const args = [
      '--approval-mode',
      'yolo',
      '--skip-trust',
      '-m',
      'gemini-2.5-flash',
      '--resume',
      sid,
      '--prompt=SECOND-QUESTION',
    ];
    const second = await ctx.headless(args, { cwd: worktree2, home: home2 });
    const req = fake.modelRequests()[1];
    const body = req ? bodyText(req) : '';
    const carried = body.includes('FIRST-QUESTION') && body.includes('FIRST-ANSWER');
    const files2 = await ctx.sessionFiles(home2);
    const savedText = await readFile(saved, 'utf8');
    const grew = savedText.length > sizeBefore && savedText.includes('SECOND-ANSWER');
    const others = files2.filter((f) => basename(f) !== basename(saved));
    const otherMessages: number[] = [];
    for (const f of others) {
      const records = await readJsonLines(join(ctx.projectsTmp(home2), f));
      otherMessages.push(
        records.filter((r) => recordKind(r) !== 'header' && recordKind(r) !== '$set').length,
      );
    }
    return {
      observed: `resume exit ${second.exitCode}; history ${carried ? 'carried' : 'NOT carried'}; saved file ${grew ? 'appended to' : 'not appended'}; other files in the new home: ${others.length} (message records: ${otherMessages.join(',') || '-'})`,
      pass:
        second.exitCode === 0 &&
        carried &&
        grew &&
        others.length === 1 &&
        otherMessages.every((n) => n === 0),
    };
  },
};

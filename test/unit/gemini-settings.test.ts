import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  OWNED_SETTINGS,
  mergeSettings,
  ownedPaths,
  parseSettingsText,
  readSettings,
  sidecarPath,
  stripJsonComments,
  unmergeSettings,
} from '../../src/gemini/settings.js';
import { UserError } from '../../src/util/errors.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gr-settings-'));
  file = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const USER_TEXT = `{
  // my theme
  "ui": { "theme": "GitHub" },
  "general": { "vimMode": true },
  "privacy": { "usageStatisticsEnabled": true },
  /* keep this */
  "context": { "fileName": "NOTES.md", "discoveryMaxDirs": 10 },
  "url": "http://example.com/a//b"
}
`;

describe('OWNED_SETTINGS', () => {
  it('sets our keys per auth kind and never sessionRetention', () => {
    expect(OWNED_SETTINGS('oauth')).toEqual({
      'context.fileName': ['GEMINI.local.md', 'GEMINI.md', 'AGENTS.md'],
      'security.auth.selectedType': 'oauth-personal',
      'privacy.usageStatisticsEnabled': false,
      'general.enableAutoUpdate': false,
      'general.enableAutoUpdateNotification': false,
    });
    expect(OWNED_SETTINGS('api-key')['security.auth.selectedType']).toBe('gemini-api-key');
    expect(OWNED_SETTINGS('vertex-ai')['security.auth.selectedType']).toBe('vertex-ai');
    for (const kind of ['oauth', 'api-key', 'vertex-ai'] as const) {
      expect(Object.keys(OWNED_SETTINGS(kind)).some((k) => k.includes('sessionRetention'))).toBe(false);
    }
  });
  it('refuses to own general.sessionRetention', async () => {
    await expect(mergeSettings(file, { 'general.sessionRetention.enabled': true })).rejects.toThrow(/never/);
    await expect(fs.access(file)).rejects.toThrow();
  });
});

describe('comments', () => {
  it('strips comments outside strings only', () => {
    const s = stripJsonComments('{"a":"x//y/*z*/", // c\n "b": 1 /* d\n e */}');
    expect(JSON.parse(s)).toEqual({ a: 'x//y/*z*/', b: 1 });
    expect(JSON.parse(stripJsonComments('{"q":"say \\"//\\" ok"}'))).toEqual({ q: 'say "//" ok' });
  });
  it('reads a file with comments', async () => {
    await fs.writeFile(file, USER_TEXT);
    expect((await readSettings(file)).ui).toEqual({ theme: 'GitHub' });
  });
});

describe('mergeSettings', () => {
  it('merges into a missing file, 0600, with the marker in a sidecar', async () => {
    await mergeSettings(file, OWNED_SETTINGS('api-key'));
    const s = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(s).toEqual({
      context: { fileName: ['GEMINI.local.md', 'GEMINI.md', 'AGENTS.md'] },
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    });
    expect(JSON.stringify(s)).not.toMatch(/gemini-run/);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await ownedPaths(file)).toHaveLength(5);
  });

  it('preserves unrelated keys, keeps the file mode, and is idempotent byte for byte', async () => {
    await fs.writeFile(file, USER_TEXT, { mode: 0o644 });
    await fs.chmod(file, 0o644);
    await mergeSettings(file, OWNED_SETTINGS('oauth'));
    const once = await fs.readFile(file, 'utf8');
    const sidecarOnce = await fs.readFile(sidecarPath(file), 'utf8');
    const s = JSON.parse(once);
    expect(s.ui).toEqual({ theme: 'GitHub' });
    expect(s.general).toEqual({
      vimMode: true,
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
    });
    // An earlier value of the user's that we own is overridden (and given back by unmerge).
    expect(s.privacy).toEqual({ usageStatisticsEnabled: false });
    expect(s.context).toEqual({
      fileName: ['GEMINI.local.md', 'GEMINI.md', 'AGENTS.md'],
      discoveryMaxDirs: 10,
    });
    expect(s.url).toBe('http://example.com/a//b');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o644);
    const mtime = (await fs.stat(file)).mtimeMs;
    await mergeSettings(file, OWNED_SETTINGS('oauth'));
    expect(await fs.readFile(file, 'utf8')).toBe(once);
    expect(await fs.readFile(sidecarPath(file), 'utf8')).toBe(sidecarOnce);
    expect((await fs.stat(file)).mtimeMs).toBe(mtime);
  });

  it('unmerge restores the exact original bytes when nothing else changed', async () => {
    await fs.writeFile(file, USER_TEXT);
    await mergeSettings(file, OWNED_SETTINGS('oauth'));
    await mergeSettings(file, OWNED_SETTINGS('oauth'));
    await unmergeSettings(file);
    expect(await fs.readFile(file, 'utf8')).toBe(USER_TEXT);
    await expect(fs.access(sidecarPath(file))).rejects.toThrow();
    await unmergeSettings(file); // nothing owned: a no-op
    expect(await fs.readFile(file, 'utf8')).toBe(USER_TEXT);
  });

  it('unmerge of a file we created removes it', async () => {
    await mergeSettings(file, OWNED_SETTINGS('oauth'));
    await unmergeSettings(file);
    await expect(fs.access(file)).rejects.toThrow();
  });

  it('unmerge after the user edited the file restores our keys only and keeps their edit', async () => {
    await fs.writeFile(file, USER_TEXT);
    await mergeSettings(file, OWNED_SETTINGS('oauth'));
    const s = JSON.parse(await fs.readFile(file, 'utf8'));
    s.ui.theme = 'Dracula';
    await fs.writeFile(file, JSON.stringify(s));
    await unmergeSettings(file);
    expect(await readSettings(file)).toEqual({
      ui: { theme: 'Dracula' },
      general: { vimMode: true },
      privacy: { usageStatisticsEnabled: true },
      context: { fileName: 'NOTES.md', discoveryMaxDirs: 10 },
      url: 'http://example.com/a//b',
    });
  });

  it('a changed owned set gives back keys no longer owned and keeps the first recorded values', async () => {
    await fs.writeFile(file, '{"privacy":{"usageStatisticsEnabled":true},"keep":1}');
    await mergeSettings(file, { 'privacy.usageStatisticsEnabled': false, 'a.b': 1 });
    await mergeSettings(file, { 'a.b': 2 });
    expect(await readSettings(file)).toEqual({
      privacy: { usageStatisticsEnabled: true },
      keep: 1,
      a: { b: 2 },
    });
    await unmergeSettings(file);
    expect(await readSettings(file)).toEqual({ privacy: { usageStatisticsEnabled: true }, keep: 1 });
  });

  it('keeps the bytes (and comments) when the file already holds our values', async () => {
    const text = '{ // mine\n "a": { "b": 1 } }\n';
    await fs.writeFile(file, text);
    await mergeSettings(file, { 'a.b': 1 });
    expect(await fs.readFile(file, 'utf8')).toBe(text);
    expect(await ownedPaths(file)).toEqual(['a.b']);
  });

  it.each([
    ['invalid JSON', '{ "ui": { "theme": '],
    ['a non-object', '[1, 2]'],
    ['a non-object parent', '{"context": "GEMINI.md"}'],
  ])('refuses %s with a one-line error naming the file, file untouched, no sidecar', async (_n, text) => {
    await fs.writeFile(file, text);
    const err = await mergeSettings(file, OWNED_SETTINGS('oauth')).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(UserError);
    expect(err!.message).toContain(file);
    expect(err!.message).not.toContain('\n');
    expect(await fs.readFile(file, 'utf8')).toBe(text);
    await expect(fs.access(sidecarPath(file))).rejects.toThrow();
  });

  it('refuses a damaged sidecar without writing', async () => {
    await fs.writeFile(file, '{}');
    await fs.writeFile(sidecarPath(file), 'garbage');
    await expect(mergeSettings(file, OWNED_SETTINGS('oauth'))).rejects.toThrow(UserError);
    expect(await fs.readFile(file, 'utf8')).toBe('{}');
  });

  it('writes through a symlinked settings.json', async () => {
    const real = join(dir, 'dotfiles-settings.json');
    await fs.writeFile(real, '{"x":1}');
    await fs.symlink(real, file);
    await mergeSettings(file, { 'a.b': true });
    expect((await fs.lstat(file)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await fs.readFile(real, 'utf8'))).toEqual({ x: 1, a: { b: true } });
    await unmergeSettings(file);
    expect(await fs.readFile(real, 'utf8')).toBe('{"x":1}');
  });

  it('leaves no temp files behind', async () => {
    await mergeSettings(file, OWNED_SETTINGS('oauth'));
    expect((await fs.readdir(dir)).sort()).toEqual(['settings.json', 'settings.json.gemini-run.json']);
  });
});

describe('parseSettingsText', () => {
  it('treats blank as empty', () => {
    expect(parseSettingsText('  \n', 'f')).toEqual({});
  });
});

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedGeminiVersion } from '../../src/gemini/install.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PINNED = join(ROOT, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');

describe('packagedGeminiVersion: the version of an npm gemini without starting it', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gemini-pkg-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function fakePackage(name: string, pkg: unknown): Promise<string> {
    const bundle = join(dir, name, 'bundle');
    await mkdir(bundle, { recursive: true });
    await writeFile(join(bundle, 'gemini.js'), '#!/usr/bin/env node\n');
    await writeFile(join(dir, name, 'package.json'), typeof pkg === 'string' ? pkg : JSON.stringify(pkg));
    return join(bundle, 'gemini.js');
  }

  it("reads the pinned bundle's package.json, and through npm's .bin link", async () => {
    expect(await packagedGeminiVersion(PINNED)).toBe('0.42.0');
    expect(await packagedGeminiVersion(join(ROOT, 'node_modules', '.bin', 'gemini'))).toBe('0.42.0');
    const link = join(dir, 'gemini');
    await symlink(PINNED, link);
    expect(await packagedGeminiVersion(link)).toBe('0.42.0');
  });

  it('answers nothing for what is not the bundle of @google/gemini-cli, so its --version is asked', async () => {
    expect(
      await packagedGeminiVersion(await fakePackage('other', { name: 'not-gemini', version: '0.42.0' })),
    ).toBe(undefined);
    expect(await packagedGeminiVersion(await fakePackage('broken', '{ nope'))).toBe(undefined);
    expect(await packagedGeminiVersion(await fakePackage('noversion', { name: '@google/gemini-cli' }))).toBe(
      undefined,
    );
    const script = join(dir, 'wrapper.sh');
    await writeFile(script, '#!/bin/sh\necho 0.42.0\n');
    expect(await packagedGeminiVersion(script)).toBe(undefined);
    expect(await packagedGeminiVersion(join(dir, 'missing', 'bundle', 'gemini.js'))).toBe(undefined);
  });

  it('reads the version a real package declares', async () => {
    expect(
      await packagedGeminiVersion(
        await fakePackage('real', { name: '@google/gemini-cli', version: '0.61.0' }),
      ),
    ).toBe('0.61.0');
  });
});

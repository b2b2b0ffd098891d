#!/usr/bin/env node
/**
 * The release's tag logic, one place for the workflow (.github/workflows/release.yml) and its test:
 *
 *   node scripts/release.mjs check <tag>        the tag is vX.Y.Z, package.json says X.Y.Z, CHANGELOG.md has its entry
 *   node scripts/release.mjs notes <tag>        prints that entry (the GitHub Release's notes)
 *   node scripts/release.mjs move-major <tag>   points the major tag (v1) at the tag's commit and pushes it to
 *                                               origin — only forward: an older line's release (v1.2.4 after
 *                                               v1.3.0) leaves v1 where it is
 *
 * As GitHub documents for actions (docs.github.com, "Using tags for release management"): users pin `@v1` and get
 * every compatible release, or a full commit SHA for an immutable one. Runs in the current directory's repository;
 * only git and node's own modules.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TAG = /^v(\d+)\.(\d+)\.(\d+)$/;

function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

function versionOf(tag) {
  const m = TAG.exec(tag ?? '');
  if (!m)
    fail(`'${tag ?? ''}' is not a release tag: vX.Y.Z (a pre-release is not published by this workflow)`);
  return { version: tag.slice(1), major: Number(m[1]), parts: m.slice(1, 4).map(Number) };
}

/** The body of CHANGELOG.md's `## [X.Y.Z] - date` entry, up to the next `## ` heading (Keep a Changelog). */
function notesOf(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((l) =>
    new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`).test(l),
  );
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  // Link definitions at the end of the file belong to no entry.
  const text = body
    .filter((l) => !/^\[[^\]]+\]: /.test(l))
    .join('\n')
    .trim();
  return text || undefined;
}

function git(args) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function check(tag) {
  const { version } = versionOf(tag);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  if (pkg.version !== version)
    fail(`package.json says version ${pkg.version}, the tag ${tag}: bump one of them`);
  if (!notesOf(readFileSync('CHANGELOG.md', 'utf8'), version))
    fail(`CHANGELOG.md has no entry '## [${version}] - YYYY-MM-DD' with notes: write it before tagging`);
  process.stdout.write(`${tag}: package.json and CHANGELOG.md agree\n`);
}

function notes(tag) {
  const { version } = versionOf(tag);
  const text = notesOf(readFileSync('CHANGELOG.md', 'utf8'), version);
  if (!text) fail(`CHANGELOG.md has no entry for ${version}`);
  process.stdout.write(`${text}\n`);
}

/** The newest release tag of a major line, by version (not by date). */
function newestOf(major) {
  const tags = git(['tag', '--list', `v${major}.*`])
    .split('\n')
    .filter((t) => TAG.test(t))
    .map((t) => ({ t, parts: versionOf(t).parts }));
  tags.sort((a, b) => a.parts[0] - b.parts[0] || a.parts[1] - b.parts[1] || a.parts[2] - b.parts[2]);
  return tags.at(-1)?.t;
}

function moveMajor(tag) {
  const { major } = versionOf(tag);
  const majorTag = `v${major}`;
  const newest = newestOf(major);
  if (newest !== tag) {
    process.stdout.write(`${majorTag} stays at ${newest}: ${tag} is not the newest v${major} release\n`);
    return;
  }
  const commit = git(['rev-parse', '--verify', `refs/tags/${tag}^{commit}`]);
  git(['tag', '--force', majorTag, commit]);
  // The major tag is the one tag that moves: pushed with force, and nothing else with it.
  git(['push', '--force', 'origin', `refs/tags/${majorTag}:refs/tags/${majorTag}`]);
  process.stdout.write(`${majorTag} -> ${tag} (${commit})\n`);
}

const [command, tag] = process.argv.slice(2);
if (command === 'check') check(tag);
else if (command === 'notes') notes(tag);
else if (command === 'move-major') moveMajor(tag);
else fail('usage: node scripts/release.mjs check|notes|move-major <vX.Y.Z>');

#!/usr/bin/env node
/**
 * Release gate (the `check` job of .github/workflows/release.yml; runs anywhere):
 * `node scripts/release-check.mjs v1.2.3` exits 0 only when the tag names the version of both
 * packages and CHANGELOG.md has a section for it (the versioning rule: CHANGELOG.md, decision 0060).
 */
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const tag = process.argv[2] ?? '';
const version = (file) => JSON.parse(readFileSync(new URL(file, root), 'utf8')).version;
const problems = [];
const m = /^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(tag);
if (!m) problems.push(`the tag "${tag}" is not a version tag like v1.2.3`);
const wanted = m?.[1];
for (const file of ['package.json', 'packages/testcontainers/package.json']) {
  const v = version(file);
  if (wanted && v !== wanted)
    problems.push(`${file} says version ${v}, the tag says ${wanted}: set it with npm version ${wanted}`);
}
const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
if (
  wanted &&
  !new RegExp(`^## \\[${wanted.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm').test(changelog)
)
  problems.push(
    `CHANGELOG.md has no section "## [${wanted}] - YYYY-MM-DD": move the Unreleased entries under it`,
  );
if (problems.length) {
  for (const p of problems) console.error(`release-check: ${p}`);
  process.exit(1);
}
console.log(`release-check: ${tag} matches both packages and CHANGELOG.md`);

#!/usr/bin/env node
/**
 * Release gate (the `check` job of .github/workflows/release.yml; runs anywhere):
 * `node scripts/release-check.mjs v1.2.3 [--root DIR]` exits 0 only when
 *   - the tag is `vX.Y.Z` or a prerelease `vX.Y.Z-rc.1`,
 *   - both package.json files (root, packages/testcontainers) say that version,
 *   - CHANGELOG.md has a section `## [X.Y.Z] - YYYY-MM-DD` (for a prerelease, its own
 *     `## [X.Y.Z-rc.1] - YYYY-MM-DD`), and
 *   - `## [Unreleased]` holds no entries: tagging then would ship work the notes do not list under
 *     the version (docs/releasing.md, the versioning rule in CHANGELOG.md).
 * It prints the npm dist-tag the version goes out under (`latest`, or `next` for a prerelease) and,
 * inside GitHub Actions, writes `version`, `dist-tag` and `prerelease` to $GITHUB_OUTPUT.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt === -1 ? new URL('..', import.meta.url).pathname : args[rootAt + 1];
const tag = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--root') ?? '';

const problems = [];
const read = (file) => {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch (err) {
    problems.push(`cannot read ${file} (${err.code ?? err.message})`);
    return undefined;
  }
};
const m = /^v(\d+\.\d+\.\d+)(-[0-9A-Za-z.-]+)?$/.exec(tag);
if (!m) problems.push(`the tag "${tag}" is not a version tag like v1.2.3 or v1.2.3-rc.1`);
const wanted = m ? `${m[1]}${m[2] ?? ''}` : undefined;
const prerelease = m?.[2] !== undefined;
for (const file of ['package.json', 'packages/testcontainers/package.json']) {
  const text = read(file);
  const v = text === undefined ? undefined : JSON.parse(text).version;
  if (wanted && text !== undefined && v !== wanted)
    problems.push(`${file} says version ${v}, the tag says ${wanted}: set it with npm version ${wanted}`);
}
const changelog = read('CHANGELOG.md');
if (wanted && changelog !== undefined) {
  const heading = new RegExp(`^## \\[${wanted.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm');
  if (!heading.test(changelog))
    problems.push(
      `CHANGELOG.md has no section "## [${wanted}] - YYYY-MM-DD": move the Unreleased entries under it`,
    );
  const entries = unreleasedEntries(changelog);
  if (entries.length > 0)
    problems.push(
      `CHANGELOG.md's [Unreleased] section still holds ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} (first: "${entries[0]}"): ` +
        `tagging now would ship them unlisted; move them under "## [${wanted}] - YYYY-MM-DD" or leave them for the next version`,
    );
}
if (problems.length) {
  for (const p of problems) console.error(`release-check: ${p}`);
  process.exit(1);
}
const distTag = prerelease ? 'next' : 'latest';
if (process.env.GITHUB_OUTPUT)
  appendFileSync(
    process.env.GITHUB_OUTPUT,
    `version=${wanted}\ndist-tag=${distTag}\nprerelease=${prerelease}\n`,
  );
console.log(
  `release-check: ${tag} matches both packages and CHANGELOG.md; npm dist-tag ${distTag}${prerelease ? ' (a prerelease)' : ''}`,
);

/**
 * The entries of `## [Unreleased]`: its list items, or (for text that is not a list) its non-blank
 * lines that are not `###` headings.
 */
function unreleasedEntries(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^## \[Unreleased\]\s*$/.test(l));
  if (start === -1) return [];
  const entries = [];
  for (const line of lines.slice(start + 1)) {
    if (/^## /.test(line)) break;
    if (line.trim() !== '' && !/^### /.test(line)) entries.push(line.trim());
  }
  const items = entries.filter((l) => /^[-*+] /.test(l));
  return items.length > 0 ? items : entries;
}

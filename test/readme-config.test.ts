import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVE_OPTIONS } from '../src/config/index.js';

import { BIN, ROOT } from './helpers/cli.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const CONFIGURATION = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
/** README.md and the documents it sends a newcomer to first. */
const NEWCOMER_DOCS = [
  'README.md',
  'docs/tour.md',
  'docs/configuration.md',
  'docs/docker.md',
  'docs/programmatic.md',
];

/** The configuration table as docs/configuration.md must show it, rendered from the one option table. */
function configTable(): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  return [
    '| Flag | Environment variable | Meaning |',
    '|---|---|---|',
    ...SERVE_OPTIONS.map(
      (o) => `| \`${o.flag}\` | ${o.env.map((e) => `\`${e}\``).join(', ')} | ${cell(o.description)} |`,
    ),
  ].join('\n');
}

describe('README.md and the newcomer documents', () => {
  it('shows every serve flag and environment variable exactly as src/config/options.ts defines them', () => {
    const match = /<!-- config:start -->\n([\s\S]*?)\n<!-- config:end -->/.exec(CONFIGURATION);
    expect(match, 'config:start/config:end markers').not.toBeNull();
    // On failure, paste the expected table between the markers.
    expect(match![1]).toBe(configTable());
  });

  it('keeps the two newcomer commands as its first lines', () => {
    const lines = README.split('\n');
    expect(lines.slice(0, 6).join('\n')).toContain('npm install && npm start');
    expect(lines.slice(0, 6).join('\n')).toContain('npm install && npm test');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toContain('serve');
    expect(pkg.scripts.test).toBeDefined();
  });

  it('links only to files that exist', () => {
    const links = [...README.matchAll(/\]\(((?!https?:|#)[^)\s]+)\)/g)].map((m) => m[1]!.split('#')[0]!);
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(existsSync(join(ROOT, link)), link).toBe(true);
  });

  it('names only commands the CLI has and paths that exist', () => {
    const help = execFileSync(process.execPath, [BIN, '--help'], {
      encoding: 'utf8',
    });
    const commands = new Set([...help.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]!));
    const docs = NEWCOMER_DOCS.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    const named = [...docs.matchAll(/(?:npx |`)reportbo-emulator ([a-z][a-z-]*)/g)].map((m) => m[1]!);
    expect(new Set(named)).toEqual(new Set(['serve', 'certs', 'run', 'verify', 'verify-client']));
    for (const command of [...named, 'generate', 'schema']) expect(commands, command).toContain(command);
    // Every repository path the documents name in backticks or links exists (placeholders aside).
    const paths = [
      ...docs.matchAll(/[`(](?:\.\.\/)?((?:docker|scenarios|docs|scripts|test|src|packages)\/[\w./-]*\w)/g),
    ]
      .map((m) => m[1]!)
      .filter((p) => !p.includes('<'));
    expect(paths).toContain('docker/Dockerfile');
    for (const path of paths) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });
});

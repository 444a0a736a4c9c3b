/**
 * The peers (WireMock, Mockoon CLI, undici) live in bench/'s own package.json so the project's
 * `npm ci` stays lean; `npm run bench` installs them here with `npm ci --prefix bench` when any is
 * missing or at another version than bench/package.json pins.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './proc.js';

const BENCH = join(ROOT, 'bench');

function missingPeers(): string[] {
  const pkg = JSON.parse(readFileSync(join(BENCH, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return Object.entries(pkg.dependencies)
    .filter(([name, version]) => {
      const file = join(BENCH, 'node_modules', name, 'package.json');
      if (!existsSync(file)) return true;
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version !== version;
    })
    .map(([name]) => name);
}

/** Runs `npm ci --prefix bench` when a pinned peer is missing; throws when that fails. */
export function ensureBenchPeers(log: (line: string) => void = console.error): void {
  const missing = missingPeers();
  if (!missing.length) return;
  log(`bench peers missing (${missing.join(', ')}): npm ci --prefix bench`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', BENCH, '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm ci --prefix bench failed (exit ${result.status})`);
  const still = missingPeers();
  if (still.length) throw new Error(`after npm ci --prefix bench, still missing: ${still.join(', ')}`);
}

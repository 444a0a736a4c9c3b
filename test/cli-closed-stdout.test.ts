/**
 * A reader that closes early (`reportbo-emulator verify --help | head -5`) must not crash the CLI
 * with an EPIPE stack trace: every command's help, written into a pipe whose reader is gone, exits 0
 * and says nothing on stderr. The commands are read from the top-level help, so a new one is covered.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from './helpers/cli.js';

const { stdout: top } = await runCli(['--help']);
const commands = [...top.slice(top.indexOf('Commands:')).matchAll(/^ {2}([a-z][\w-]*)/gm)]
  .map((m) => m[1]!)
  .filter((c) => c !== 'help');

/** Runs `args` with a stdout pipe whose reader closes before the CLI writes. */
async function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

describe('the CLI writing into a pipe whose reader has gone', () => {
  it('reads the commands from the top-level help', () => {
    expect(commands).toEqual(expect.arrayContaining(['serve', 'verify', 'verify-client', 'run']));
  });

  it.concurrent.each([[[] as string[]], ...commands.map((c) => [[c]])])(
    '%j --help exits 0, without a stack trace',
    async (command) => {
      const run = await withClosedStdout([...command, '--help']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    },
  );
});

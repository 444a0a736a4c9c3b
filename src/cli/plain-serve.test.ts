import { describe, expect, it } from 'vitest';
import { plainServeFlags } from './plain-serve.js';
import { buildProgram } from './program.js';

/** The flags commander hands `serve` for these arguments, or 'refused' when it does not run serve. */
async function commanderFlags(argv: string[]): Promise<Record<string, unknown> | 'refused'> {
  let seen: Record<string, unknown> | undefined;
  const program = buildProgram(
    () => {},
    async (flags) => {
      seen = { ...flags };
      return 0;
    },
  );
  program.configureOutput({ writeOut: () => {}, writeErr: () => {} });
  for (const cmd of program.commands)
    cmd.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return 'refused';
  }
  return seen ?? 'refused';
}

describe('plainServeFlags', () => {
  it.each([
    [[]],
    [['serve']],
    [['--port', '0']],
    [['serve', '--port', '0', '--config', '/tmp/c.json']],
    [['serve', '--port=8081', '--clock', 'manual', '--allow-http', '--accept-lowercase-keys']],
    [['--hour-ms', '2000', '--clock-start', '2026-04-27T10:00:00Z', '--seed', '7']],
    [['--api-version-16', '1.6.0.0', '--base-path-17', '/api/1.7', '--log-level', 'silent']],
    [['--port', '1', '--port', '2']],
    [['--host=::1', '--ca-file', 'ca file.pem', '--exchange-notifies', 'both']],
  ])('reads %j exactly as commander does', async (argv) => {
    const plain = plainServeFlags(argv);
    expect(plain).toBeDefined();
    expect(plain).toEqual(await commanderFlags(argv));
  });

  it.each([
    [['--help']],
    [['serve', '--help']],
    [['--version']],
    [['-V']],
    [['generate', '--count', '2']],
    [['run', 'a.yaml']],
    [['serve', 'extra']],
    [['--no-such-option']],
    [['--port']],
    [['--port', '--clock', 'manual']],
    [['--port=']],
    [['--allow-http=yes']],
    [['--base-path-16', '-x']],
    [['--', '--port', '1']],
    [['-p', '1']],
  ])('leaves %j to commander', (argv) => {
    expect(plainServeFlags(argv)).toBeUndefined();
  });
});

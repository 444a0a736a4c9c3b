import { Command, CommanderError } from 'commander';
import { packageVersion } from '../config/version.js';
import { registerCertsCommand } from './certs.js';
import { registerGenerateCommand } from './generate.js';
import { registerRunCommand } from './run.js';
import { registerSchemaCommand } from './schema.js';
import { addServeOptions, runServe } from './serve.js';
import { registerVerifyCommand } from './verify.js';
import { registerVerifyClientCommand } from './verify-client.js';

/** Command modules add themselves here; each lazy-loads its implementation inside its action. */
type Register = (program: Command, setExit: (code: number) => void) => void;
const COMMANDS: Register[] = [
  registerCertsCommand,
  registerGenerateCommand,
  registerRunCommand,
  registerSchemaCommand,
  registerVerifyCommand,
  registerVerifyClientCommand,
];

/**
 * The CLI as a commander program; `serve` hands its flags to `serve` (the real one, or a test's).
 * Parsing throws a CommanderError for help, version and usage errors (`exitOverride`).
 */
export function buildProgram(
  setExit: (code: number) => void,
  serve: (flags: Record<string, unknown>) => Promise<number> = runServe,
): Command {
  const program = new Command()
    .name('reportbo-emulator')
    .description(
      'Contract-testing emulator for ReportBO notifications (webhook) and GetAccessToken (API 1.6/1.7).',
    )
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)')
    // The program's options (--version, --help) are read before a command's name only, so a command
    // may have a --version of its own (verify-client's API version).
    .enablePositionalOptions()
    .exitOverride();

  addServeOptions(
    program
      .command('serve', { isDefault: true })
      .description('serve the provider API (GetAccessToken) and the admin API, and deliver notifications'),
  ).action(async (flags: Record<string, unknown>) => setExit(await serve(flags)));

  for (const register of COMMANDS) register(program, setExit);
  return program;
}

/** The whole CLI parsed by commander; resolves with the exit code (errors of the commands are thrown). */
export async function runProgram(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    // --help and --version end through here with code 0.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    throw err;
  }
}

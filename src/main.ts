import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerCertsCommand } from './cli/certs.js';
import { registerGenerateCommand } from './cli/generate.js';
import { registerRunCommand } from './cli/run.js';
import { registerSchemaCommand } from './cli/schema.js';
import { addServeOptions, runServe } from './cli/serve.js';
import { EmulatorError } from './errors.js';

/** Command modules add themselves here; each lazy-loads its implementation inside its action. */
type Register = (program: Command, setExit: (code: number) => void) => void;
const COMMANDS: Register[] = [
  registerCertsCommand,
  registerGenerateCommand,
  registerRunCommand,
  registerSchemaCommand,
];

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** Runs the CLI with the given arguments (without `node` and the script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = code;
  };
  const program = new Command()
    .name('reportbo-emulator')
    .description(
      'Contract-testing emulator for ReportBO notifications (webhook) and GetAccessToken (API 1.6/1.7).',
    )
    .version(version())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  addServeOptions(
    program
      .command('serve', { isDefault: true })
      .description('serve the provider API (GetAccessToken) and the admin API, and deliver notifications'),
  ).action(async (flags: Record<string, unknown>) => setExit(await runServe(flags)));

  for (const register of COMMANDS) register(program, setExit);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with code 0.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof EmulatorError) {
      process.stderr.write(`reportbo-emulator: ${err.message}\n`);
      return err.category === 'user_input' ? 2 : 1;
    }
    process.stderr.write(`reportbo-emulator: unexpected error: ${(err as Error).message ?? String(err)}\n`);
    return 1;
  }
}

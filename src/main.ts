import { EmulatorError } from './errors.js';

/** Runs the CLI with the given arguments (without `node` and the script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const { runProgram } = await import('./cli/program.js');
    return await runProgram(argv);
  } catch (err) {
    if (err instanceof EmulatorError) {
      process.stderr.write(`reportbo-emulator: ${err.message}\n`);
      return err.category === 'user_input' ? 2 : 1;
    }
    process.stderr.write(`reportbo-emulator: unexpected error: ${(err as Error).message ?? String(err)}\n`);
    return 1;
  }
}

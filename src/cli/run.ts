import type { Command } from 'commander';

interface RunFlags {
  target?: string;
  adminToken?: string;
  junit?: string;
  json?: string;
}

/** `run <files…>`: runs scenario files and exits 0 (all held), 1 (an expectation failed) or 2 (invalid file). */
export function registerRunCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('run')
    .description(
      'run scenario files (YAML or JSON; a directory runs every scenario in it), each in a fresh ' +
        'in-process emulator or against --target; exit 0 when every expectation held, 1 when one ' +
        'failed or a step could not run, 2 when a scenario file is invalid',
    )
    .argument('<files...>', 'scenario files or directories')
    .option(
      '--target <url>',
      'run against a running emulator at this URL, e.g. http://localhost:8080 (it is not reset: the run adds its own credentials, users and CA, looks only at what it made, and removes them afterwards)',
    )
    .option(
      '--admin-token <token>',
      'the --target emulator\'s admin token, sent as "Authorization: Bearer <token>" [env REPORTBO_ADMIN_TOKEN]',
    )
    .option('--junit <file>', 'write a JUnit XML report (one testcase per expectation)')
    .option('--json <file>', 'write a JSON report of every scenario, step and expectation')
    .action(async (files: string[], flags: RunFlags) => {
      const { runCommand } = await import('./run-command.js');
      const adminToken = flags.adminToken ?? (process.env.REPORTBO_ADMIN_TOKEN || undefined);
      setExit(await runCommand(files, { ...flags, ...(adminToken ? { adminToken } : {}) }));
    });
}

import type { Command } from 'commander';
import { CLIENT_CASE_IDS, CLIENT_CASE_TITLES } from '../verify-client/types.js';
import type { VerifyClientFlags } from './verify-client-command.js';

function caseList(): string {
  const width = Math.max(...CLIENT_CASE_IDS.map((id) => id.length));
  return CLIENT_CASE_IDS.map((id) => `  ${id.padEnd(width)}  ${CLIENT_CASE_TITLES[id]}`).join('\n');
}

/** `verify-client`: the SDK conformance kit; exit 0 (no case failed), 1 (a case failed), 2 (bad usage or harness). */
export function registerVerifyClientCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('verify-client')
    .description(
      'check how your SDK calls GetAccessToken: runs your harness once per case against a fresh ' +
        'in-process emulator and judges what the SDK did (its calls, its output, its exit code, its timing); ' +
        'exit 0 when no case failed (warnings allowed), 1 when one failed, 2 for bad usage or a harness that breaks its contract',
    )
    .option(
      '--exec <command>',
      'the command that runs your harness, run by sh (required; docs/verify-client.md)',
    )
    .option('--version <version>', 'the API version the SDK calls: 1.6 or 1.7 (default 1.7)')
    .option('--variant <variant>', 'how the SDK calls: json, xml, soap11 or soap12 (default json)')
    .option('--only <ids>', 'run only these cases (comma-separated ids, listed below)')
    .option('--harness-timeout-ms <ms>', 'how long the harness may run in a case (default 15000)')
    .option(
      '--hang-bound-ms <ms>',
      'how long the SDK has to give up on a provider that never answers (default 15000)',
    )
    .option(
      '--json <file>',
      'write the JSON report (folders are created); each case carries the calls and what the harness printed',
    )
    .option('--junit <file>', 'write a JUnit XML report (one testcase per case; folders are created)')
    .option(
      '--replay <report.json>',
      'run again, with the same command, version, variant and bounds, the cases of a --json report that failed or warned (or those --only names)',
    )
    .addHelpText(
      'after',
      `\nThe harness gets VERIFY_CLIENT_ENDPOINT, VERIFY_CLIENT_WSDL, VERIFY_CLIENT_BASE_URL, VERIFY_CLIENT_VERSION, ` +
        `VERIFY_CLIENT_VARIANT, VERIFY_CLIENT_USERNAME, VERIFY_CLIENT_PASSWORD, VERIFY_CLIENT_TOKENS and ` +
        `VERIFY_CLIENT_INTERVAL_MS; it asks its SDK for that many tokens, that far apart, prints each on its own ` +
        `line and exits 0, or prints the error and exits non-zero.\n\n` +
        `Cases (docs/verify-client.md explains each):\n${caseList()}\n\n` +
        'Example:\n  reportbo-emulator verify-client --exec "node harness.mjs" --api-version 1.7 --variant json --json sdk.json\n' +
        'Run the cases that failed again, after a fix:\n  reportbo-emulator verify-client --replay sdk.json\n',
    )
    .action(async (flags: VerifyClientFlags) => {
      const { runVerifyClientCommand } = await import('./verify-client-command.js');
      setExit(await runVerifyClientCommand(flags));
    });
}

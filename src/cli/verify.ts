import type { Command } from 'commander';
import { CASE_IDS, CASE_TITLES } from '../verify/types.js';
import type { VerifyFlags } from './verify-command.js';

function caseList(): string {
  const width = Math.max(...CASE_IDS.map((id) => id.length));
  return CASE_IDS.map((id) => `  ${id.padEnd(width)}  ${CASE_TITLES[id]}`).join('\n');
}

/** `verify`: the receiver conformance kit; exit 0 (no case failed), 1 (a case failed or not judged for --budget), 2 (bad usage). */
export function registerVerifyCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('verify')
    .description(
      'check that your receiver handles notifications the way the provider sends them: sends real ' +
        'notifications from an in-process emulator on a manual clock and judges each case from what ' +
        'the receiver did; exit 0 when no case failed (warnings allowed), 1 when one failed or cases were left unjudged (--budget, or a delivery unanswered for 10 s), 2 for bad usage',
    )
    .option('--receiver <url>', 'the URL your receiver takes notifications at (https://…; required)')
    .option('--api-key <key>', 'the ApiKey your receiver expects as "Authorization: Bearer <key>" (required)')
    .option('--ca-file <pem>', "trust this CA (PEM) for the receiver's certificate, besides the system roots")
    .option(
      '--allow-http',
      'accept a plain http:// receiver (the tls case then warns: production needs HTTPS)',
    )
    .option(
      '--probe <url-template>',
      'GET URL holding {BookingID} or {BookingNumber} that answers {"BookingStatus": …} as recorded, 404 when unknown; enables records-final-status and same-second-filename-collision',
    )
    .option('--only <ids>', 'run only these cases (comma-separated ids, listed below)')
    .option(
      '--response-timeout-ms <ms>',
      'how long the receiver has to answer each delivery (default 30000, as the provider)',
    )
    .option('--seed <n>', 'seed of the generated bookings (default: random, printed in the report)')
    .option(
      '--other-api-key <key>',
      'the ApiKey of another credential of the same receiver: rejects-wrong-api-key checks that it is refused here too',
    )
    .option(
      '--probe-deadline-ms <ms>',
      'how long a probe check is asked again until it reads right, for a receiver that records asynchronously (default 10000)',
    )
    .option(
      '--burst-concurrency <n>',
      'notifications survives-batch-burst redelivers at once (default 50; the provider does not publish its own)',
    )
    .option(
      '--experiment-ms <ms>',
      'how long the experiments on a refused notification may take, to name its cause (default 10000; 0: none)',
    )
    .option('--fail-fast', 'stop at the first failed case; the cases after it are skipped')
    .option(
      '--budget <duration>',
      "the run's time budget, 1s to 24h (90s, 2m, PT1M, or milliseconds): once it is spent the attempts in flight are cancelled, every wait ends, the case running and the ones after it are skipped as not judged (the report names them) and the exit code is 1 (default: none; without it, deliveries unanswered for 10 s are cancelled instead of waiting the response timeout out, and one with your key cut so ends the run 25 s after its start)",
    )
    .option('--junit <file>', 'write a JUnit XML report (one testcase per case; folders are created)')
    .option(
      '--json <file>',
      'write the JSON report (folders are created); each case carries its trace: the notifications sent (BookingID, UpdateDate, status, the gzip bytes), the answers and the probe readings',
    )
    .option(
      '--replay <report.json>',
      'send the notifications of one case of a --json report again, byte for byte and in the same order, and judge them as the case did (with --only <case>; --api-key again, never stored in the report)',
    )
    .option('--url <url>', 'with --replay: send to this URL instead of the receiver the report names')
    .addHelpText(
      'after',
      `\nCases (in run order; docs/verify.md explains each):\n${caseList()}\n\n` +
        'Example:\n  reportbo-emulator verify --receiver https://localhost:8443/reportbo --api-key KEY --ca-file ca.pem --json verify.json\n' +
        'Replay one failing case of that report against a fixed receiver (same bytes, same order, same judgement):\n' +
        '  reportbo-emulator verify --replay verify.json --only records-final-status --api-key KEY --ca-file ca.pem [--url https://…]\n',
    )
    .action(async (flags: VerifyFlags) => {
      const { runVerifyCommand } = await import('./verify-command.js');
      setExit(await runVerifyCommand(flags));
    });
}

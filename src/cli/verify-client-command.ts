/** The `verify-client` command: flags to options, the console report, the report files, the exit code. */
import { writeReport } from '../report/index.js';
import { resolveClientOptions } from '../verify-client/options.js';
import { replayOptions } from '../verify-client/replay.js';
import {
  clientJson,
  clientJunit,
  clientProgress,
  formatClientHeader,
  formatClientSummary,
} from '../verify-client/report.js';
import { runVerifyClient } from '../verify-client/runner.js';
import { makeReportFolders, wholeNumberFlag } from './report-flags.js';

/** Flags of `verify-client` as commander hands them over (numbers still text). */
export interface VerifyClientFlags {
  exec?: string;
  version?: string;
  variant?: string;
  only?: string;
  harnessTimeoutMs?: string;
  hangBoundMs?: string;
  json?: string;
  junit?: string;
  replay?: string;
}

type Write = (text: string) => void;

/**
 * Runs `verify-client` and answers the exit code: 0 no case failed, 1 a case failed. Bad usage (and
 * a harness that cannot keep its contract) throws an InputError, which the CLI prints and ends with 2.
 */
export async function runVerifyClientCommand(
  flags: VerifyClientFlags,
  write: Write = (t) => process.stdout.write(t),
  terminal = Boolean(process.stdout.isTTY),
): Promise<number> {
  const replayed = flags.replay === undefined ? {} : await replayOptions(flags.replay, flags.only);
  const options = resolveClientOptions(
    {
      ...replayed,
      ...(flags.exec === undefined ? {} : { exec: flags.exec }),
      ...(flags.version === undefined ? {} : { version: flags.version }),
      ...(flags.variant === undefined ? {} : { variant: flags.variant }),
      ...(flags.only === undefined ? {} : { only: flags.only }),
      ...integer('--harness-timeout-ms', 'harnessTimeoutMs', flags.harnessTimeoutMs),
      ...integer('--hang-bound-ms', 'hangBoundMs', flags.hangBoundMs),
    },
    'cli',
  );
  await makeReportFolders([
    ['--junit', flags.junit],
    ['--json', flags.json],
  ]);
  write(formatClientHeader(options));
  const report = await runVerifyClient(options, clientProgress(write, terminal));
  write(formatClientSummary(report));
  if (flags.json) await writeReport('--json', flags.json, clientJson(report));
  if (flags.junit) await writeReport('--junit', flags.junit, clientJunit(report));
  return report.failed > 0 ? 1 : 0;
}

function integer(flag: string, key: string, value: string | undefined): Record<string, number> {
  return wholeNumberFlag('verify_client_options_invalid', flag, key, value);
}

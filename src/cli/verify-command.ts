/** The `verify` command: flags to options, the console report, the report files, the exit code. */
import { parseDurationMs } from '../clock/duration.js';
import { InputError } from '../errors.js';
import { writeReport } from '../report/index.js';
import { type ResolvedOptions, resolveOptions } from '../verify/options.js';
import { loadReplay, type ReplaySource, replayTargets, runReplay } from '../verify/replay.js';
import { consoleProgress, formatHeader, formatSummary } from '../verify/report/console.js';
import { verifyJson, verifyJunit } from '../verify/report/files.js';
import { runVerify } from '../verify/runner.js';
import type { VerifyListener, VerifyReport } from '../verify/types.js';
import { makeReportFolders, wholeNumberFlag } from './report-flags.js';

/** Flags of `verify` as commander hands them over (numbers still text). */
export interface VerifyFlags {
  receiver?: string;
  apiKey?: string;
  caFile?: string;
  allowHttp?: boolean;
  probe?: string;
  only?: string;
  responseTimeoutMs?: string;
  seed?: string;
  otherApiKey?: string;
  probeDeadlineMs?: string;
  burstConcurrency?: string;
  experimentMs?: string;
  failFast?: boolean;
  budget?: string;
  junit?: string;
  json?: string;
  replay?: string;
  url?: string;
}

type Write = (text: string) => void;

/**
 * Runs `verify` and answers the exit code: 0 no case failed, 1 a case failed or cases were left
 * unjudged (`--budget`, or the default wait for one answer, decision 0239). Bad usage throws an InputError, which the CLI prints and ends with 2.
 */
export async function runVerifyCommand(
  flags: VerifyFlags,
  write: Write = (t) => process.stdout.write(t),
  terminal = Boolean(process.stdout.isTTY),
): Promise<number> {
  const source = flags.replay === undefined ? undefined : await loadReplay(flags.replay, flags.only);
  if (flags.url !== undefined && !source)
    throw new InputError(
      'verify_options_invalid',
      '--url goes with --replay; give the receiver with --receiver.',
      {
        path: 'url',
      },
    );
  const { receiver, probe } = source
    ? replayTargets(source, { url: flags.url, receiver: flags.receiver, probe: flags.probe })
    : { receiver: flags.receiver, probe: flags.probe };
  const options = await resolveOptions(
    {
      ...(receiver === undefined ? {} : { receiver }),
      ...(flags.apiKey === undefined ? {} : { apiKey: flags.apiKey }),
      ...(flags.caFile === undefined ? {} : { caFile: flags.caFile }),
      ...(flags.allowHttp ? { allowHttp: true } : {}),
      ...(probe === undefined ? {} : { probe }),
      ...(flags.only === undefined ? {} : { only: flags.only }),
      ...(source ? { responseTimeoutMs: source.responseTimeoutMs } : {}),
      ...(source?.probeDeadlineMs === undefined ? {} : { probeDeadlineMs: source.probeDeadlineMs }),
      ...integer('--response-timeout-ms', 'responseTimeoutMs', flags.responseTimeoutMs),
      ...integer('--seed', 'seed', flags.seed),
      ...(flags.otherApiKey === undefined ? {} : { otherApiKey: flags.otherApiKey }),
      ...integer('--probe-deadline-ms', 'probeDeadlineMs', flags.probeDeadlineMs),
      ...integer('--burst-concurrency', 'burstConcurrency', flags.burstConcurrency),
      ...integer('--experiment-ms', 'experimentMs', flags.experimentMs),
      ...(flags.failFast ? { failFast: true } : {}),
      ...(flags.budget === undefined ? {} : { budgetMs: budgetMs(flags.budget) }),
    },
    'cli',
  );
  await makeReportFolders([
    ['--junit', flags.junit],
    ['--json', flags.json],
  ]);
  write(formatHeader(options));
  const report = source
    ? await replayWithProgress(options, source, consoleProgress(write, terminal))
    : await runVerify(options, consoleProgress(write, terminal));
  write(formatSummary(report));
  if (flags.json) await writeReport('--json', flags.json, verifyJson(report));
  if (flags.junit) await writeReport('--junit', flags.junit, verifyJunit(report));
  return report.failed > 0 || report.skippedForBudget?.length ? 1 : 0;
}

async function replayWithProgress(
  options: ResolvedOptions,
  source: ReplaySource,
  listener: VerifyListener,
): Promise<VerifyReport> {
  listener.caseStart?.(source.id, `replay of ${source.file}`, 1, 1);
  const report = await runReplay(options, source);
  listener.caseEnd?.(report.cases[0]!, 1, 1);
  return report;
}

/** `--budget`: a duration (`90s`, `2m`, `PT1M`) or whole milliseconds; its range is the schema's. */
function budgetMs(value: string): number {
  const ms = parseDurationMs(value, '--budget');
  if (!Number.isInteger(ms))
    throw new InputError(
      'verify_options_invalid',
      `--budget: "${value}" is not a whole number of milliseconds.`,
      {
        path: 'budgetMs',
      },
    );
  return ms;
}

function integer(flag: string, key: string, value: string | undefined): Record<string, number> {
  return wholeNumberFlag('verify_options_invalid', flag, key, value);
}

/**
 * `verify-client --replay <report.json>`: runs again the cases of an earlier `--json` report that
 * did not pass (or those `--only` names), with the same command, version, variant and bounds, so a
 * fixed SDK is checked the way it failed.
 */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { API_VERSIONS, VARIANTS } from '../auth/types.js';
import { InputError } from '../errors.js';
import { CLIENT_CASE_IDS } from './types.js';

/** A report is a few hundred KiB at most (100 lines of stdout per case); anything larger is not one. */
const MAX_REPORT_BYTES = 10 * 1024 * 1024;

/** What a replay reads back from a report (other members are ignored). */
const ReplaySchema = z.object({
  exec: z.string().min(1),
  version: z.enum(API_VERSIONS),
  variant: z.enum(VARIANTS),
  harnessTimeoutMs: z.number().int(),
  hangBoundMs: z.number().int(),
  cases: z.array(z.object({ id: z.enum(CLIENT_CASE_IDS), status: z.string() })),
});

/** The options of a replay: the report's, with the cases that did not pass unless `only` is given. */
export async function replayOptions(
  file: string,
  only: string | undefined,
): Promise<Record<string, unknown>> {
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_REPORT_BYTES)
      throw new InputError(
        'replay_unreadable',
        `--replay ${file}: ${size} bytes is not a verify-client report (at most ${MAX_REPORT_BYTES}).`,
      );
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(
      'replay_unreadable',
      `--replay ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a report written by verify-client --json.`,
    );
  }
  let parsed: z.infer<typeof ReplaySchema>;
  try {
    parsed = ReplaySchema.parse(JSON.parse(text));
  } catch {
    throw new InputError(
      'replay_unreadable',
      `--replay ${file}: not a verify-client --json report (it needs exec, version, variant, the bounds and cases).`,
    );
  }
  const notPassed = parsed.cases
    .filter((c) => c.status === 'failed' || c.status === 'warned')
    .map((c) => c.id);
  if (only === undefined && notPassed.length === 0)
    throw new InputError(
      'replay_nothing',
      `--replay ${file}: every case of that report passed or was skipped; name the cases to run again with --only.`,
    );
  return {
    exec: parsed.exec,
    version: parsed.version,
    variant: parsed.variant,
    harnessTimeoutMs: parsed.harnessTimeoutMs,
    hangBoundMs: parsed.hangBoundMs,
    only: only ?? notPassed,
  };
}

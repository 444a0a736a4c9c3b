/** What a case of the SDK kit is, and the judgements several cases share. */
import type { HarnessRun } from '../harness.js';
import { lastLine } from '../harness.js';
import type { ResolvedClientOptions } from '../options.js';
import type { Ask, Stage, StageSetup } from '../stage.js';
import type { CaseStatus, ClientCall, ClientCaseId } from '../types.js';

/** A case's verdict; `fix` replaces the case's own when the failure needs another one. */
export interface Verdict {
  status: CaseStatus;
  reason: string;
  fix?: string;
}

/** What a judge reads: the options, what the harness was asked, what it did, what the emulator saw. */
export interface Seen {
  options: ResolvedClientOptions;
  ask: Ask;
  run: HarnessRun;
  stage: Stage;
  calls: ClientCall[];
  /** The harness's bound in this case. */
  boundMs: number;
}

export interface ClientCase {
  id: ClientCaseId;
  /** The rule checked: a section of the specification, or the kit's own rule in docs/verify-client.md. */
  rule: string;
  fix: string;
  /** Why the case does not apply to these options (it is then skipped), or undefined. */
  skip?(options: ResolvedClientOptions): string | undefined;
  /** The emulator of the case: faults, the user's versions, the token lifetime. */
  stage?(options: ResolvedClientOptions): Omit<StageSetup, 'version' | 'variant'>;
  /** What the harness is asked for. */
  ask: Ask;
  /** What the setup does, in words (the report's `sent` line). */
  setting: string;
  /** True for the one case whose bound is --hang-bound-ms. */
  hangs?: boolean;
  judge(seen: Seen): Verdict;
}

export const pass = (reason: string): Verdict => ({ status: 'passed', reason });
export const fail = (reason: string, fix?: string): Verdict => ({
  status: 'failed',
  reason,
  ...(fix ? { fix } : {}),
});
export const warn = (reason: string, fix?: string): Verdict => ({
  status: 'warned',
  reason,
  ...(fix ? { fix } : {}),
});

/** `n thing` or `n things`. */
export function count(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? '' : 's'}`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** What the harness last said, on stderr or stdout, quoted for a reason; empty when it said nothing. */
export function said(run: HarnessRun): string {
  const line = lastLine(run.stderr) || lastLine(run.stdout.join('\n'));
  return line ? `"${line.length > 200 ? `${line.slice(0, 200)}…` : line}"` : '';
}

/** The calls that got a token. */
export function okCalls(calls: readonly ClientCall[]): ClientCall[] {
  return calls.filter((c) => c.outcome === 'ok');
}

/** The verdict of a harness that did not end by itself within its bound. */
export function killed(seen: Seen): Verdict {
  return fail(
    `the harness did not end within ${seconds(seen.boundMs)} (${count(seen.calls.length, 'call')} answered); it was stopped`,
    'End the harness once it has printed VERIFY_CLIENT_TOKENS tokens or reported an error, and give every call a timeout.',
  );
}

/** A printed token with when it arrived and when the emulator said it expires. */
export interface PrintedToken {
  token: string;
  arrivedAtMs: number;
  expiresAtMs: number;
}

/**
 * The tokens a harness asked for `ask.tokens` printed, when it ended well; otherwise the failure
 * that says what went wrong (an error reported, too few lines, a line that is no issued token).
 */
export function printedTokens(seen: Seen): PrintedToken[] | Verdict {
  const { run, ask, stage } = seen;
  if (run.killedAfterMs !== undefined) return killed(seen);
  if (run.exitCode !== 0)
    return fail(
      `the SDK reported an error instead of ${count(ask.tokens, 'token')} (exit ${run.exitCode ?? run.signal}${said(run) ? `: ${said(run)}` : ''})`,
    );
  if (run.stdout.length < ask.tokens)
    return fail(
      `the harness printed ${run.stdout.length} of the ${ask.tokens} tokens asked for and exited 0`,
      'Print one line per token asked for (VERIFY_CLIENT_TOKENS), then exit 0.',
    );
  const issued = stage.issued();
  const tokens: PrintedToken[] = [];
  for (const [i, line] of run.stdout.slice(0, ask.tokens).entries()) {
    const token = line.trim();
    const expiresAtMs = issued.get(token);
    if (expiresAtMs === undefined)
      return fail(
        `line ${i + 1} the harness printed, "${token.slice(0, 80)}", is not a token the emulator issued`,
        'Print the Token of the answer alone, one per line; errors go to stderr with a non-zero exit.',
      );
    tokens.push({ token, arrivedAtMs: run.arrivedAtMs[i]!, expiresAtMs });
  }
  return tokens;
}

/** The pauses between consecutive calls, in ms. */
export function pauses(calls: readonly ClientCall[]): number[] {
  return calls.slice(1).map((c, i) => c.atMs - calls[i]!.atMs);
}

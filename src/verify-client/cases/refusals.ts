/** Refused calls: a wrong password (1200) and a version the user may not call (1201) are errors, reported once. */
import { TRANSACTION_CODES } from '../../auth/codes.js';
import { type ClientCase, count, fail, killed, pass, type Seen, said, type Verdict, warn } from './case.js';

const ASKED = 3;

/** The judgement both refusals share: an error, never a token, one call, the code in the words. */
function judgeRefusal(seen: Seen, code: string, what: string): Verdict {
  const { run, calls, options } = seen;
  if (run.killedAfterMs !== undefined) return killed(seen);
  if (run.exitCode === 0) {
    const first = run.stdout[0]?.trim() ?? '';
    if (options.version === '1.6' && first.startsWith(code))
      return fail(
        `treats the 1.6 error string as a token: printed "${first.slice(0, 80)}" as a token and exited 0`,
        'In API 1.6 an answer that begins with a digit is an error ("<code> - <message>"): report it, never hand it out.',
      );
    return fail(
      run.stdout.length > 0
        ? `treats the ${code} answer as a token: printed "${first.slice(0, 80)}" and exited 0 though every call was refused`
        : `exited 0 without a token or an error though every call was refused with ${code}`,
      'Read TransactionCode (1.7) or the leading code (1.6) and report the error with a non-zero exit.',
    );
  }
  if (calls.length === 0) return fail(`made no GetAccessToken call before it reported an error ${said(run)}`);
  if (calls.length > 1)
    return fail(
      `retries ${code}: called GetAccessToken ${calls.length} times with the same ${what}; asking again cannot change the answer`,
      `Do not retry ${code}: report it at once (only transient failures, 5xx or a dropped connection, are worth a retry).`,
    );
  const words = `${run.stderr}\n${run.stdout.join('\n')}`;
  if (!words.includes(code))
    return warn(
      `reported an error after 1 call, but its words do not name ${code} ${said(run) || '(it printed nothing)'}`,
      `Name the TransactionCode (${code}) and TransactionMessage in the error, so a person can tell a ${what} from an outage.`,
    );
  return pass(`reported ${code} after 1 call: ${said(run)}`);
}

export const reportsWrongPassword: ClientCase = {
  id: 'reports-wrong-password',
  rule: 'spec "Errors": GetAccessToken 1.6 answers "<code> - <message>", 1.7 sets TransactionCode; 1200 is invalid credentials',
  fix: 'Check TransactionCode (1.7) or the leading code (1.6); report 1200 as an error with a non-zero exit, without retrying.',
  ask: { tokens: ASKED, intervalMs: 0, wrongPassword: true },
  setting: `asked for ${count(ASKED, 'token')} with a wrong VERIFY_CLIENT_PASSWORD`,
  judge: (seen) => judgeRefusal(seen, TRANSACTION_CODES.invalid_credentials, 'wrong password'),
};

export const reportsVersionRefused: ClientCase = {
  id: 'reports-version-refused',
  rule: 'spec "Authentication" 3: from API 1.7 the user must be authorized for the version called',
  fix: 'Report 1201 as an error with a non-zero exit, without retrying; ask the account manager for 1.7 access.',
  skip: (o) =>
    o.version === '1.6' ? 'API 1.6 does not enforce versions (spec "Authentication" 3)' : undefined,
  stage: () => ({ userVersions: ['1.6'] }),
  ask: { tokens: ASKED, intervalMs: 0 },
  setting: `the user is authorized for 1.6 only; asked for ${count(ASKED, 'token')}`,
  judge: (seen) => judgeRefusal(seen, TRANSACTION_CODES.version_not_authorized, 'version refusal'),
};

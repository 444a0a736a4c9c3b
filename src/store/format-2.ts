/**
 * The records of data dir format 2 (before the journal's records were the changes, decision 0230):
 * their shapes, checked when read back, and `changesOf`, the one reader that turns each into the
 * changes it stands for, so a data dir written by an earlier build still opens.
 */
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { UserSchema } from '../auth/users.js';
import { certificateInfo, type TrustedCertificate } from '../delivery/trust.js';
import { JournalEntryShape } from '../model/auth.js';
import {
  CHANGE_SHAPES,
  ClockMarkShape,
  type KeptChange,
  KeptCredentialShape,
  NotificationDataShape,
  ReservationDataShape,
  StartedAttemptShape,
  settledFields,
} from '../model/changes.js';
import { AttemptShape, BatchResultShape } from '../model/delivery.js';
import { instant, str } from '../model/fields.js';
import { TRUST_SOURCES } from '../model/trust.js';

/** Each kind of format-2 record and the shape of its data. */
export const FORMAT_2_SHAPES = {
  clock: ClockMarkShape,
  'user+': UserSchema,
  'user-': z.object({ username: str }),
  'cred+': KeptCredentialShape,
  'cred-': z.object({ id: str }),
  'trust+': z.object({ text: str, source: z.enum(TRUST_SOURCES), fingerprint: str }),
  'trust-': z.object({ fingerprint: str }),
  faults: CHANGE_SHAPES.fault_used,
  outages: CHANGE_SHAPES.outage_used,
  res: ReservationDataShape,
  'n+': NotificationDataShape,
  'a>': z.object({ id: str, attempt: StartedAttemptShape }),
  n: z.object({ id: str, ...settledFields, attempt: AttemptShape.optional() }),
  'n-': CHANGE_SHAPES.notifications_dropped,
  'b>': z.object({ at: instant }),
  b: BatchResultShape,
  req: JournalEntryShape,
  tok: z.object({
    ...CHANGE_SHAPES.token_issued.shape,
    revoked: z.boolean(),
  }),
  'tok-': z.object({ token: str }),
  // `reset` is the same record in both formats.
} as const;

export type Format2Kind = keyof typeof FORMAT_2_SHAPES;
export type Format2Record = {
  [K in Format2Kind]: { k: K; d: z.output<(typeof FORMAT_2_SHAPES)[K]> };
}[Format2Kind];

type Trusted = (fingerprint: string) => TrustedCertificate | undefined;

/** The changes each kind of format-2 record stands for, in order (a token issued revoked is two). */
const CHANGES_OF: {
  [K in Format2Kind]: (d: z.output<(typeof FORMAT_2_SHAPES)[K]>, trusted: Trusted) => KeptChange[];
} = {
  clock: (mark) => [{ k: 'clock_started', d: { mark } }],
  'user+': (user) => [{ k: 'user_added', d: { user } }],
  'user-': (d) => [{ k: 'user_removed', d }],
  'cred+': (credential) => [{ k: 'credential_added', d: { credential } }],
  'cred-': (d) => [{ k: 'credential_removed', d }],
  'trust+': ({ text, source }) => [
    { k: 'trust_added', d: { certificate: certificateInfo(new X509Certificate(text), source), pem: text } },
  ],
  'trust-': ({ fingerprint }, trusted) => {
    const certificate = trusted(fingerprint);
    return certificate ? [{ k: 'trust_removed', d: { certificate } }] : [];
  },
  faults: (d) => [{ k: 'fault_used', d }],
  outages: (d) => [{ k: 'outage_used', d }],
  res: (d) => [{ k: 'reservation_saved', d }],
  'n+': (notification) => [{ k: 'notification_created', d: { notification } }],
  'a>': (d) => [{ k: 'attempt_started', d }],
  n: ({ id, attempt, ...settled }) => [
    attempt
      ? { k: 'attempt_ended', d: { id, attempt, settled } }
      : { k: 'notification_cancelled', d: { id, settled } },
  ],
  'n-': (d) => [{ k: 'notifications_dropped', d }],
  'b>': (d) => [{ k: 'batch_started', d }],
  b: (result) => [{ k: 'batch_done', d: { result } }],
  req: (entry) => [{ k: 'call_journaled', d: { entry } }],
  tok: ({ revoked, ...issued }) => [
    { k: 'token_issued', d: issued },
    ...(revoked ? [{ k: 'token_revoked' as const, d: { token: issued.token } }] : []),
  ],
  'tok-': (d) => [{ k: 'token_revoked', d }],
};

/**
 * The changes one format-2 record stands for. A removed certificate is named by its fingerprint:
 * `trusted` answers the certificate read back with it.
 */
export function changesOf(rec: Format2Record, trusted: Trusted): KeptChange[] {
  return (CHANGES_OF[rec.k] as (d: Format2Record['d'], trusted: Trusted) => KeptChange[])(rec.d, trusted);
}

/**
 * The records of data dir format 2 (before the journal's records were the changes, decision 0230):
 * their shapes, checked when read back, and `changesOf`, the one reader that turns each into the
 * changes it stands for, so a data dir written by an earlier build still opens.
 */
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { certificateInfo, type TrustedCertificate } from '../delivery/trust.js';
import { CHANGE_SHAPES as C, type KeptChange, settledFields } from '../model/changes.js';
import { str } from '../model/fields.js';
import { TRUST_SOURCES } from '../model/trust.js';

type Trusted = (fingerprint: string) => TrustedCertificate | undefined;

/** A kind of format-2 record: the shape of its data, and the changes it stands for, in order. */
function kind<S extends z.ZodType>(shape: S, changes: (d: z.output<S>, trusted: Trusted) => KeptChange[]) {
  return { shape, changes };
}

const FORMAT_2 = {
  clock: kind(C.clock_started.shape.mark, (mark) => [{ k: 'clock_started', d: { mark } }]),
  'user+': kind(C.user_added.shape.user, (user) => [{ k: 'user_added', d: { user } }]),
  'user-': kind(C.user_removed, (d) => [{ k: 'user_removed', d }]),
  'cred+': kind(C.credential_added.shape.credential, (credential) => [
    { k: 'credential_added', d: { credential } },
  ]),
  'cred-': kind(C.credential_removed, (d) => [{ k: 'credential_removed', d }]),
  'trust+': kind(
    z.object({ text: str, source: z.enum(TRUST_SOURCES), fingerprint: str }),
    ({ text, source }) => [
      { k: 'trust_added', d: { certificate: certificateInfo(new X509Certificate(text), source), pem: text } },
    ],
  ),
  // A removed certificate is named by its fingerprint: `trusted` answers the one read back with it.
  'trust-': kind(z.object({ fingerprint: str }), ({ fingerprint }, trusted) => {
    const certificate = trusted(fingerprint);
    return certificate ? [{ k: 'trust_removed', d: { certificate } }] : [];
  }),
  faults: kind(C.fault_used, (d) => [{ k: 'fault_used', d }]),
  outages: kind(C.outage_used, (d) => [{ k: 'outage_used', d }]),
  res: kind(C.reservation_saved, (d) => [{ k: 'reservation_saved', d }]),
  'n+': kind(C.notification_created.shape.notification, (notification) => [
    { k: 'notification_created', d: { notification } },
  ]),
  'a>': kind(C.attempt_started, (d) => [{ k: 'attempt_started', d }]),
  n: kind(
    z.object({ id: str, ...settledFields, attempt: C.attempt_ended.shape.attempt.optional() }),
    ({ id, attempt, ...settled }) => [
      attempt
        ? { k: 'attempt_ended', d: { id, attempt, settled } }
        : { k: 'notification_cancelled', d: { id, settled } },
    ],
  ),
  'n-': kind(C.notifications_dropped, (d) => [{ k: 'notifications_dropped', d }]),
  'b>': kind(C.batch_started, (d) => [{ k: 'batch_started', d }]),
  b: kind(C.batch_done.shape.result, (result) => [{ k: 'batch_done', d: { result } }]),
  req: kind(C.call_journaled.shape.entry, (entry) => [{ k: 'call_journaled', d: { entry } }]),
  // A token issued revoked is two changes.
  tok: kind(z.object({ ...C.token_issued.shape, revoked: z.boolean() }), ({ revoked, ...issued }) => [
    { k: 'token_issued', d: issued },
    ...(revoked ? [{ k: 'token_revoked' as const, d: { token: issued.token } }] : []),
  ]),
  'tok-': kind(C.token_revoked, (d) => [{ k: 'token_revoked', d }]),
  // `reset` is the same record in both formats.
};

type Format2Kind = keyof typeof FORMAT_2;
/** Each kind of format-2 record and the shape of its data. */
export const FORMAT_2_SHAPES = Object.fromEntries(
  Object.entries(FORMAT_2).map(([k, { shape }]) => [k, shape]),
) as {
  [K in Format2Kind]: (typeof FORMAT_2)[K]['shape'];
};

/** The changes a record stands for: a format-2 record's, or the record itself (format 3). */
export function changesOf(rec: { k: string; d: unknown }, trusted: Trusted): KeptChange[] {
  if (!Object.hasOwn(FORMAT_2, rec.k)) return [rec as KeptChange];
  return (FORMAT_2[rec.k as Format2Kind].changes as (d: unknown, t: Trusted) => KeptChange[])(rec.d, trusted);
}

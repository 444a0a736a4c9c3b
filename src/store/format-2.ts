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

/**
 * The changes one format-2 record stands for, in order (a token issued revoked is two). A removed
 * certificate is named by its fingerprint: `trusted` answers the certificate read back with it.
 */
export function changesOf(
  rec: Format2Record,
  trusted: (fingerprint: string) => TrustedCertificate | undefined,
): KeptChange[] {
  switch (rec.k) {
    case 'clock':
      return [{ k: 'clock_started', d: { mark: rec.d } }];
    case 'user+':
      return [{ k: 'user_added', d: { user: rec.d } }];
    case 'user-':
      return [{ k: 'user_removed', d: rec.d }];
    case 'cred+':
      return [{ k: 'credential_added', d: { credential: rec.d } }];
    case 'cred-':
      return [{ k: 'credential_removed', d: rec.d }];
    case 'trust+': {
      const certificate = certificateInfo(new X509Certificate(rec.d.text), rec.d.source);
      return [{ k: 'trust_added', d: { certificate, pem: rec.d.text } }];
    }
    case 'trust-': {
      const certificate = trusted(rec.d.fingerprint);
      return certificate ? [{ k: 'trust_removed', d: { certificate } }] : [];
    }
    case 'faults':
      return [{ k: 'fault_used', d: rec.d }];
    case 'outages':
      return [{ k: 'outage_used', d: rec.d }];
    case 'res':
      return [{ k: 'reservation_saved', d: rec.d }];
    case 'n+':
      return [{ k: 'notification_created', d: { notification: rec.d } }];
    case 'a>':
      return [{ k: 'attempt_started', d: rec.d }];
    case 'n': {
      const { id, attempt, ...settled } = rec.d;
      return [
        attempt
          ? { k: 'attempt_ended', d: { id, attempt, settled } }
          : { k: 'notification_cancelled', d: { id, settled } },
      ];
    }
    case 'n-':
      return [{ k: 'notifications_dropped', d: rec.d }];
    case 'b>':
      return [{ k: 'batch_started', d: rec.d }];
    case 'b':
      return [{ k: 'batch_done', d: { result: rec.d } }];
    case 'req':
      return [{ k: 'call_journaled', d: { entry: rec.d } }];
    case 'tok': {
      const { revoked, ...issued } = rec.d;
      const changes: KeptChange[] = [{ k: 'token_issued', d: issued }];
      if (revoked) changes.push({ k: 'token_revoked', d: { token: issued.token } });
      return changes;
    }
    case 'tok-':
      return [{ k: 'token_revoked', d: rec.d }];
  }
}

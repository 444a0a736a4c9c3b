/**
 * Resend: a new notification with the body of one already made (as sent, or edited) to chosen
 * credentials, the way webhook tools resend a message to one endpoint; and the bulk form, "every failed
 * delivery of credential C since T". The reservation is not touched (manual redelivery through
 * `POST /__admin/reservations/:bookingId/redeliver` changes its status; this does not).
 */
import {
  assertValidBody,
  type NotificationBody,
  NotificationBodyStrictSchema,
  unpackBody,
} from '../contract/index.js';
import { InputError, NotFoundError } from '../errors.js';
import type { CredentialStore } from './credentials.js';
import type { NotificationRecord } from './notification.js';
import type { Outbox } from './outbox.js';

export interface ResendInput {
  /** The body to send instead of the original's (edited); validated against the contract. */
  body?: unknown;
  /** Where to send it; default: the original's credential. */
  credentialIds?: readonly string[];
}

export interface ResendResult {
  from: string;
  notifications: NotificationRecord[];
  edited: boolean;
}

/** Resends notification `id` (see the file comment); 404 for an unknown id, 400 for an unknown credential or an invalid body. */
export function resend(
  outbox: Outbox,
  credentials: CredentialStore,
  id: string,
  input: ResendInput,
): ResendResult {
  const original = outbox.get(id);
  if (!original) throw new NotFoundError('notification_not_found', `No notification with id "${id}".`);
  const ids = input.credentialIds ?? [original.credentialId];
  if (ids.length === 0) {
    throw new InputError('invalid_resend', 'credentialIds: name at least one credential (or leave it out).', {
      path: 'credentialIds',
    });
  }
  const known = credentials.list();
  const targets = [...new Set(ids)].map((cid) => {
    const credential = known.find((c) => c.id === cid);
    if (!credential) {
      throw new InputError(
        'invalid_resend',
        `credentialIds: no credential "${cid}"${cid === original.credentialId ? ' (it was deleted since)' : ''}.`,
        { path: 'credentialIds', accepted: known.map((c) => c.id) },
      );
    }
    return credential;
  });
  const edited = input.body !== undefined;
  const body: NotificationBody = edited
    ? assertValidBody(NotificationBodyStrictSchema, input.body, 'The edited body')
    : unpackBody(original.gz);
  // Unedited, the very bytes sent before go out again.
  const gz = edited ? undefined : original.gz;
  return {
    from: original.id,
    edited,
    notifications: targets.map((credential) =>
      outbox.create(credential, original.bookingId, body, gz, original.id),
    ),
  };
}

/** Which notifications a bulk resend takes: a credential's failed ones created at or after `since`. */
export interface BulkResendInput {
  credentialId: string;
  /** Emulator time, epoch ms. */
  sinceMs: number;
}

/** Failed: exhausted (nothing retries it any more), or pending with a failed attempt and none running. */
export function failedSince(outbox: Outbox, input: BulkResendInput): NotificationRecord[] {
  return outbox
    .list({ credentialId: input.credentialId })
    .filter(
      (n) =>
        Date.parse(n.createdAt) >= input.sinceMs &&
        (n.state === 'exhausted' || (n.state === 'pending' && !n.inFlight && n.attempts.length > 0)),
    );
}

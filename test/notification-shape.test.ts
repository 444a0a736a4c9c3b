import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NotificationSchema, NotificationSummarySchema } from '../src/admin/contract/delivery-schemas.js';
import { BodyFile } from '../src/contract/index.js';
import {
  buildNotification,
  type NotificationRecord,
  toDetail,
  toSummary,
} from '../src/delivery/notification.js';
import { COPIED_MEMBERS, NotificationSummaryShape } from '../src/model/notification.js';
import { type KeptServices, recordOf } from '../src/store/change-records.js';
import { keptRecord } from '../src/store/kinds.js';

// Decision 0234: a notification's members are one shape (src/model/notification.ts). Each member
// of it reaches the summary and detail answers, the admin contract's components and the data dir's
// record without another edit: these checks read the members from the shape, so a member added
// there and lost on one of the ways fails here.

/** A notification with every member set, none null. */
function everyMemberSet(): NotificationRecord {
  return buildNotification(
    {
      id: 'n-000002',
      credentialId: 'c1',
      bookingId: 7,
      bookingNumber: 'BN7',
      bookingStatus: 'Issued',
      state: 'cancelled',
      url: 'https://receiver.example/hook',
      createdAt: '2026-04-27T10:00:00.000Z',
      deliveredAt: '2026-04-27T10:01:00.000Z',
      exhaustedAt: '2026-04-27T10:02:00.000Z',
      cancelledAt: '2026-04-27T10:03:00.000Z',
      cancelReason: 'resent',
      resentFrom: 'n-000001',
      filename: '20260427_100000Z-BN7.json',
      warnings: ['a warning'],
      inFlight: false,
    },
    {
      cancelWhenSettled: undefined,
      authorization: 'Bearer key-000000000001',
      gz: BodyFile.shared.keep(gzipSync('{}')),
      attempts: [],
      lastFinishedMs: 5,
    },
  );
}

describe('the notification shape', () => {
  it('builds every record with its members in the shape’s order, the ones left out as null', () => {
    const full = everyMemberSet();
    const bare = buildNotification(
      { id: 'n-000003', warnings: [], inFlight: false },
      {
        cancelWhenSettled: undefined,
        authorization: '',
        gz: full.gz,
        attempts: [],
        lastFinishedMs: undefined,
      },
    );
    expect(Object.keys(bare)).toEqual(Object.keys(full));
    expect(Object.keys(full).slice(0, COPIED_MEMBERS.length)).toEqual(COPIED_MEMBERS);
    for (const k of COPIED_MEMBERS)
      if (NotificationSummaryShape.shape[k].safeParse(null).success) expect(bare[k], k).toBeNull();
  });

  it('answers every member in the summary, in the shape’s order, and the contract accepts it', () => {
    const summary = toSummary(everyMemberSet());
    expect(Object.keys(summary)).toEqual(Object.keys(NotificationSummaryShape.shape));
    expect(NotificationSummarySchema.strict().parse(summary)).toEqual(summary);
    for (const k of COPIED_MEMBERS) expect(summary[k], k).not.toBeNull();
  });

  it('answers every member but the count and the last attempt in the detail, and the contract accepts it', () => {
    const n = everyMemberSet();
    const { body: _body, ...detail } = toDetail(n);
    expect(NotificationSchema.omit({ body: true }).strict().parse(detail)).toEqual(detail);
  });

  it('keeps every member in the data dir’s record, and the record reads back', () => {
    const n = everyMemberSet();
    // A body of its own (not its reservation's latest), warnings not its credential's.
    const services = {
      delivery: { credentials: { get: () => undefined } },
      reservations: { stored: () => undefined },
    };
    const record = recordOf(
      { kind: 'notification_created', notification: n },
      services as unknown as KeptServices,
      () => expect.unreachable('a notification names no clock'),
    )!;
    const read = keptRecord(record.k, JSON.parse(JSON.stringify(record.d)), Buffer.from('gz'));
    expect(typeof read, String(read)).toBe('object');
    const d = (read as { d: { notification: Record<string, unknown> } }).d.notification;
    for (const k of COPIED_MEMBERS.filter((m) => m !== 'inFlight')) expect(d[k], k).toEqual(n[k]);
  });
});

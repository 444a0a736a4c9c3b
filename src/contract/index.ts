/** The notification contract: one zod schema, its TypeScript type and its JSON Schema. */
import { z } from 'zod';
import { type NotificationBody, NotificationBodySchema } from './body.js';
import { buildNotificationSchema } from './schema.js';

export type { DeepPartial } from './deep-partial.js';
export { BOOKING_STATUSES, type BookingStatus, EVENT_TYPES, type EventType } from './events.js';
export { fractionDigits, type PaxType } from './formats.js';
export { type NotificationBody, NotificationBodySchema };

/** The body exactly as the spec defines it: unknown members are rejected (emulator self-checks). */
export const NotificationBodyStrictSchema = buildNotificationSchema('strict');

export type Ticket = NotificationBody['Ticket'][number];
export type Segment = NotificationBody['Segment'][number];
export type Payment = NotificationBody['Payment'][number];

/** Where the schema will be published (the `$id` of the JSON Schema). */
export const NOTIFICATION_SCHEMA_ID = 'urn:reportbo-emulator:notification-body:1.0';

/** JSON Schema (draft 2020-12) of the strict body, derived from the zod schema. */
export function notificationJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(NotificationBodyStrictSchema, { target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return { $schema: schema.$schema, $id: NOTIFICATION_SCHEMA_ID, ...schema };
}
export { assertValidBody } from './validate.js';

/** The JSON Schema as the file docs/notification.schema.json holds it (2-space indent, final newline). */
export function notificationJsonSchemaText(): string {
  return `${JSON.stringify(notificationJsonSchema(), null, 2)}\n`;
}
export { BodyFile, concatBodies, StoredBody } from './body-file.js';
export { packBody, unpackBody } from './packed.js';
export { bodyMayHold, sketchBody, termBits } from './sketch.js';

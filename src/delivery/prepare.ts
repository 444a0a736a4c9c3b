import { gzipSync } from 'node:zlib';
import type { NotificationBody } from '../contract/index.js';
import type { Credential } from './credential-schema.js';
import type { DeliveryRequest } from './sender.js';

/** Spec "Endpoints 1", header table: the fixed identifier of the sending service. */
export const USER_AGENT = 'Service-ReportBO';

/**
 * The Content-Disposition file name: `<yyyyMMdd_HHmmssZ>-<BookingNumber>.json`, the time being the
 * body's Reservation.UpdateDate in UTC (spec "Endpoints 1": "date, underscore, time, trailing Z").
 */
export function notificationFilename(body: NotificationBody): string {
  const iso = new Date(body.Reservation.UpdateDate).toISOString(); // 2026-04-27T10:00:00.000Z
  const compact = `${iso.slice(0, 10).replaceAll('-', '')}_${iso.slice(11, 19).replaceAll(':', '')}Z`;
  return `${compact}-${body.Reservation.BookingNumber}.json`;
}

/** A request computed once per notification: every attempt sends these exact bytes and headers. */
export interface PreparedNotification extends DeliveryRequest {
  filename: string;
}

/** Serializes and gzips a body and builds the headers of spec "Endpoints 1" for one credential. */
export function prepareNotification(credential: Credential, body: NotificationBody): PreparedNotification {
  const gz = gzipSync(Buffer.from(JSON.stringify(body), 'utf8'));
  const filename = notificationFilename(body);
  return {
    url: credential.url,
    filename,
    body: gz,
    headers: Object.freeze({
      'User-Agent': USER_AGENT,
      Authorization: `Bearer ${credential.apiKey}`,
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'Content-Length': String(gz.length),
      'Content-Disposition': `attachment; filename=${filename}`,
    }),
  };
}

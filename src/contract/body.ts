import type { z } from 'zod';
import { buildNotificationSchema } from './schema.js';

/** The body as a tolerant receiver reads it: unknown members are let through. */
export const NotificationBodySchema = buildNotificationSchema('lenient');

export type NotificationBody = z.infer<typeof NotificationBodySchema>;

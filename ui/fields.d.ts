/**
 * Served as /__admin/ui/fields.js, made by the server from the notification's shape
 * (src/model/notification.ts, src/admin/ui.ts): each member that names other notifications and the
 * label the dashboard links it with.
 */
export declare const NOTIFICATION_LINKS: ReadonlyArray<{ member: string; label: string }>;

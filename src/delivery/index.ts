/** The delivery engine: credentials and routing, the sender, the outbox and redelivery batches. */

export {
  type Attempt,
  MAX_REDELIVERIES,
  type NotificationRecord,
  toDetail,
  toSummary,
} from './notification.js';
export type { BatchResult } from './outbox.js';
export { deliveryHeaders } from './prepare.js';
export { type DeliveryRequest, HttpSender, type Sender } from './sender.js';
export { DeliveryService, type DispatchResult } from './service.js';
export type { NotificationFilter } from './settle.js';
export { deliveryStats } from './stats.js';

/** The delivery engine: credentials and routing, the sender, the outbox and redelivery batches. */

export {
  type Credential,
  type CredentialInput,
  CredentialInputSchema,
  httpWarning,
  parseCredential,
} from './credential-schema.js';
export { CredentialStore } from './credentials.js';
export { Limiter } from './limiter.js';
export {
  type Attempt,
  CANCEL_REASONS,
  type CancelReason,
  MAX_ATTEMPTS,
  MAX_REDELIVERIES,
  NOTIFICATION_STATES,
  type NotificationDetail,
  type NotificationRecord,
  type NotificationState,
  type NotificationSummary,
  toDetail,
  toSummary,
} from './notification.js';
export {
  MAX_OUTAGE_ATTEMPTS,
  type Outage,
  type OutageInput,
  OutageInputSchema,
  OutageStore,
} from './outages.js';
export {
  BATCH_HISTORY_LIMIT,
  type BatchResult,
  NOT_ATTEMPTED_LIST_LIMIT,
  NOT_ATTEMPTED_REASONS,
  type NotAttempted,
  type NotAttemptedReason,
  Outbox,
} from './outbox.js';
export { ATTEMPT_OUTCOMES, type AttemptOutcome, type SendResult } from './outcome.js';
export { deliveryHeaders, notificationFilename, prepareNotification, USER_AGENT } from './prepare.js';
export { matches, route } from './routing.js';
export { type DeliveryRequest, HttpSender, RESPONSE_BODY_CAP_BYTES, type Sender } from './sender.js';
export {
  type DeliveryDeps,
  DeliveryService,
  type DeliverySettings,
  type DispatchResult,
  type NotificationRef,
} from './service.js';
export type { NotificationFilter } from './settle.js';
export { type TrustedCertificate, type TrustSource, TrustStore } from './trust.js';

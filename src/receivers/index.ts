/** Programmable notification receivers: tests and the scenario runner's built-in receivers use them. */
export {
  behave,
  type ReceiverBehaviour,
  type ReceiverBehaviourKind,
  ReceiverBehaviourSchema,
} from './behaviour.js';
export {
  type ReceivedRequest,
  type Receiver,
  type ReceiverOptions,
  type ReceiverTlsOptions,
  startReceiver,
} from './receiver.js';
export { ENDLESS_CHUNK_BYTES, RESET_AFTER_HEADERS_DELAY_MS } from './respond.js';

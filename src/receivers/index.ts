/** Programmable notification receivers: tests and the scenario runner's built-in receivers use them. */
export { behave, type ReceiverBehaviour } from './behaviour.js';
export { type Receiver, type ReceiverOptions, startReceiver } from './receiver.js';

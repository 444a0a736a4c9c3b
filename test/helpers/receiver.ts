import { type Receiver, type ReceiverOptions, startReceiver } from '../../src/receivers/index.js';

import { WAIT_DEADLINE_MS } from './deadline.js';
import { afterEachTest } from './file-hooks.js';

export { behave, type Receiver } from '../../src/receivers/index.js';

const open = new Set<Receiver>();

afterEachTest(async () => {
  const closing = [...open].map((r) => r.close());
  open.clear();
  await Promise.all(closing);
});

/**
 * Starts a loopback receiver (port 0) that the test file closes after each test. Its
 * `waitForRequests` waits up to the suite's wait deadline unless told otherwise (the receiver's own
 * default, 5 s, is for users' tests, not for a loaded CI machine).
 */
export async function receiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const r = await startReceiver(options);
  open.add(r);
  const wait = r.waitForRequests.bind(r);
  return Object.assign(r, {
    waitForRequests: (count: number, timeoutMs = WAIT_DEADLINE_MS) => wait(count, timeoutMs),
  });
}

import { type Receiver, type ReceiverOptions, startReceiver } from '../../src/receivers/index.js';

import { afterEachTest } from './file-hooks.js';

export { behave, type Receiver } from '../../src/receivers/index.js';

const open = new Set<Receiver>();

afterEachTest(async () => {
  const closing = [...open].map((r) => r.close());
  open.clear();
  await Promise.all(closing);
});

/** Starts a loopback receiver (port 0) that the test file closes after each test. */
export async function receiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const r = await startReceiver(options);
  open.add(r);
  return r;
}

/**
 * Scale (npm run test:scale): `verify` owes a correct receiver that answers every notification after
 * 2 s (well inside the 30 s the spec allows) a clean report; the run takes minutes by design.
 */
import { expect, it } from 'vitest';
import { verifyReceiver } from '../src/index.js';
import { bugReceiver } from './helpers/verify-bug-receivers.js';

const KEY = 'correct-receiver-key';

it('passes every case against a receiver that answers after 2 s, warning only about plain http', {
  timeout: 300_000,
}, async () => {
  const r = await bugReceiver(KEY, { slowMs: 2_000 });
  const report = await verifyReceiver({
    receiver: r.url,
    apiKey: KEY,
    allowHttp: true,
    probe: r.probe,
    seed: 11,
  });
  const notPassed = report.cases.filter((c) => c.status !== 'passed').map((c) => [c.id, c.status, c.reason]);
  expect(notPassed).toEqual([['tls', 'warned', expect.stringMatching(/^plain http:\/\/ accepted/)]]);
  expect(report.cases).toHaveLength(17);
  expect(report.causes).toEqual([]);
});

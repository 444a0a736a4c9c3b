/**
 * `verify` owes a correct receiver a clean report, whatever its style and however loaded the machine:
 * a Node receiver, one that records from a queue (the probe lags), and Python's standard library, threaded (HTTP/1.1 keep-alive) and single-threaded HTTP/1.0 (a close
 * after every answer; headers read case-insensitively). Each passes every case with --probe and
 * warns only that plain http:// is not what production uses. A receiver that answers every
 * notification after 2 s is in verify-slow-receiver.scale.test.ts (npm run test:scale).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type VerifyReport, verifyReceiver } from '../src/index.js';
import { ROOT } from './helpers/cli.js';
import { start } from './helpers/processes.js';
import { type BugReceiverOptions, bugReceiver } from './helpers/verify-bug-receivers.js';

const KEY = 'correct-receiver-key';

function expectClean(report: VerifyReport): void {
  const notPassed = report.cases.filter((c) => c.status !== 'passed').map((c) => [c.id, c.status, c.reason]);
  expect(notPassed).toEqual([['tls', 'warned', expect.stringMatching(/^plain http:\/\/ accepted/)]]);
  expect(report.cases).toHaveLength(17);
  expect(report.causes).toEqual([]);
}

const NODE_STYLES: Array<[string, BugReceiverOptions]> = [
  ['answers at once (Node)', {}],
  ['records from a queue 300 ms after answering', { queueLagMs: 300 }],
  ['records a booking only once the probe has asked for it', { recordsWhenAsked: true }],
];

// Side by side: each has its own receiver and verify run, and a correct receiver passes however
// loaded the machine is.
describe.concurrent('correct receivers, side by side', () => {
  describe.each(NODE_STYLES)('verify against a correct receiver that %s', (_style, options) => {
    it('passes every case, warning only about plain http', { timeout: 300_000 }, async () => {
      const r = await bugReceiver(KEY, options);
      const report = await verifyReceiver({
        receiver: r.url,
        apiKey: KEY,
        allowHttp: true,
        probe: r.probe,
        seed: 11,
      });
      expectClean(report);
      if (options.recordsWhenAsked) {
        // The first ask of every booking misses (a 300 ms lag may be over before a slow machine asks),
        // so the probe was asked again, and the reason says how long it took.
        expect(report.cases.find((c) => c.id === 'records-final-status')!.reason).toMatch(
          /your receiver records asynchronously: the slowest check read right after \d+ ms/,
        );
      }
    });
  });

  const PYTHON_STYLES: Array<[string, string[]]> = [
    ['threaded, HTTP/1.1 keep-alive', ['--threaded']],
    ['single-threaded, HTTP/1.0, a close after every answer', []],
  ];

  describe.each(PYTHON_STYLES)(
    'verify against a correct Python receiver (http.server, %s)',
    (_style, flags) => {
      it('passes every case, warning only about plain http', { timeout: 300_000 }, async () => {
        const py = start('python3', [
          join(ROOT, 'test/helpers/verify_receiver.py'),
          '--api-key',
          KEY,
          ...flags,
        ]);
        const port = (await py.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1];
        const base = `http://127.0.0.1:${port}`;
        const report = await verifyReceiver({
          receiver: `${base}/reportbo`,
          apiKey: KEY,
          allowHttp: true,
          probe: `${base}/bookings/{BookingID}`,
          seed: 12,
        });
        expectClean(report);
        // The probe returned the stored content, and it matched exactly (Decimal amounts, UTF-8 names).
        expect(report.cases.find((c) => c.id === 'accepts-maximal-body')!.reason).toMatch(
          /stored exactly as sent \(Pax, RatioAmount, RawDataLength compared\)/,
        );
      });
    },
  );
});

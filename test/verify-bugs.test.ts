/**
 * `verify`, second round: receivers with one realistic bug each fail exactly the case(s) that check
 * it, with a reason that names the bug; failures with one cause are grouped under it (every answer
 * 401, every valid body refused, a redirect everywhere, a receiver that died); the TLS checks offer
 * TLS 1.2 and ALPN as the sender does. Real loopback sockets, real gzip, real TLS.
 */
import { once } from 'node:events';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { createServerCertificate } from '../src/certs/index.js';
import { type CaseId, type VerifyOptions, type VerifyReport, verifyReceiver } from '../src/index.js';
import { rawReceiver } from './helpers/raw-receiver.js';
import { loopbackCertificate, testCa, testCaFile } from './helpers/tls.js';
import { type Bug, type BugReceiverOptions, bugReceiver } from './helpers/verify-bug-receivers.js';

const KEY = 'bug-test-key';
const OTHER_KEY = 'second-credential-key';

const ids = (report: VerifyReport, status: string) =>
  report.cases.filter((c) => c.status === status).map((c) => c.id);
const caseOf = (report: VerifyReport, id: CaseId) => report.cases.find((c) => c.id === id)!;

/** One verify run against a fresh receiver with `bug`, closed when the run ends. */
async function verifyBug(bug: Bug, options: BugReceiverOptions = {}, extra: Partial<VerifyOptions> = {}) {
  const r = await bugReceiver(KEY, { bug, ...options });
  try {
    return await verifyReceiver({
      receiver: r.url,
      apiKey: KEY,
      allowHttp: true,
      probe: r.probe,
      seed: 7,
      // A wrong state stays wrong: a short deadline keeps the failing probe reads short.
      probeDeadlineMs: 1_500,
      ...extra,
    } as VerifyOptions);
  } finally {
    await r.close();
  }
}

/**
 * Each bug, the cases it must fail, the cases it may also fail (a second case that can catch it,
 * depending on which of two concurrent requests came first), and the reason of the first case.
 */
const BUGS: Array<[Bug, CaseId[], CaseId[], RegExp, BugReceiverOptions?, Partial<VerifyOptions>?]> = [
  [
    'stores-before-auth',
    ['rejects-wrong-api-key', 'rejects-missing-authorization'],
    [],
    /was answered HTTP 401, but the probe says Issued for its booking \d+: the receiver stored it before checking the key/,
  ],
  [
    'compares-prefix',
    ['rejects-wrong-api-key'],
    [],
    /answered 200 to a notification with "Bearer " and an empty token.*answered 200 to a notification with the first half of your key as Bearer token \(a prefix\)/,
  ],
  [
    'compares-any-case',
    ['rejects-wrong-api-key'],
    [],
    /answered 200 to a notification with your key in another letter case/,
  ],
  [
    'accepts-basic',
    ['rejects-wrong-api-key'],
    [],
    /answered 200 to a notification with "Basic <base64 of reportbo:your key>"/,
  ],
  [
    'accepts-any-credential-key',
    ['rejects-wrong-api-key'],
    [],
    /answered 200 to a notification with the ApiKey of another credential \(--other-api-key\)/,
    { otherKey: OTHER_KEY },
    { otherApiKey: OTHER_KEY },
  ],
  [
    'answers-201-without-authorization',
    ['rejects-missing-authorization'],
    [],
    /answered 201 to a notification without any Authorization header: a 2xx is never a refusal/,
  ],
  [
    'placeholder-overwritten-by-issue',
    ['handles-void-before-issue'],
    // Both send a Void before its Issue deliberately (the second with the same UpdateDate).
    ['records-concurrent-issue-and-void', 'records-newest-update-date'],
    /the probe says Issued for booking \d+: the late Issue overwrote the Void/,
  ],
  [
    'drops-unknown-void',
    ['handles-void-before-issue'],
    ['records-concurrent-issue-and-void', 'records-newest-update-date'],
    /a Void of a booking the receiver did not know yet was answered 200 and dropped.*a Void whose Issue never came was answered 200, but the probe says unknown \(404\)/,
  ],
  [
    'read-modify-write',
    ['records-concurrent-issue-and-void'],
    [],
    /both were answered 200, but the probe says Issued .*the two updates raced, and the older one was written last/,
  ],
  [
    'decodes-latin1',
    ['accepts-maximal-body'],
    [],
    /not stored as sent: passenger 1 was sent as Zoë Müller-Lüdenscheidt, stored as ZoÃ« MÃ¼ller-LÃ¼denscheidt \(the UTF-8 bytes decoded as Latin-1/,
  ],
  [
    'rounds-amounts',
    ['accepts-maximal-body'],
    [],
    /Ratio\.Amount was sent as 1234\.56789012 \(decimal\(16,8\)\), stored as 1234\.57/,
  ],
  [
    'proxy-limit-9kb',
    ['accepts-large-body'],
    [],
    // The experiment confirms the size, not a field's value: a smaller body was taken.
    /^the large body \(\d+ bytes gzip, \d+ bytes of JSON\) was refused with HTTP 413 Payload Too Large: a request-size limit.*Found by experiment: the receiver refuses the request by its size: \d+ bytes of gzip were answered HTTP 413; the same body made smaller \(.*\) HTTP 200: a request-size limit/,
  ],
  [
    'refuses-old-update-date',
    ['accepts-old-update-date'],
    // Its boundaries lie a day to a year back: refused too, and named so.
    ['records-newest-update-date'],
    /^the notification with UpdateDate \S+ \(3 days old\) was answered HTTP 400: a receiver that refuses old UpdateDates loses every late redelivery/,
  ],
  [
    'ignores-equal-update-date',
    ['same-second-filename-collision'],
    [],
    /Not the filename: an Exchange's two reservations .* were both recorded\. The receiver takes the Void for a duplicate because its UpdateDate equals the Issue's\. The tie rule:/,
  ],
  [
    'refuses-void-with-taken-filename',
    ['same-second-filename-collision'],
    [],
    /^the Void was not acknowledged: HTTP 400 after \d+ ms, body "duplicate file" \(the Issue before it was acknowledged\)/,
  ],
  [
    'refuses-burst-with-413',
    ['survives-batch-burst'],
    [],
    /every refusal is an answer \(\d+ HTTP 413\), not a lack of capacity/,
  ],
];

// Every test has its own receiver on its own port and its own verify run (an emulator of its own):
// they wait on sockets and timers far more than they compute, so they run side by side.
describe.concurrent('verify, second round', () => {
  describe.each(BUGS)('verify against a receiver that %s', (bug, cases, maybe, reason, options, extra) => {
    it(`fails ${cases.join(' and ')} naming the bug, and nothing else`, async () => {
      const report = await verifyBug(bug, options, extra);
      const failed = ids(report, 'failed');
      expect(
        failed.filter((id) => !maybe.includes(id)).sort(),
        JSON.stringify(report.cases.filter((c) => c.status === 'failed').map((c) => [c.id, c.reason])),
      ).toEqual([...cases].sort());
      expect(ids(report, 'warned')).toEqual(['tls']);
      expect(caseOf(report, cases[0]!).reason).toMatch(reason);
      expect(report.causes).toEqual([]);
    });
  });

  describe('verify against a receiver answering 200 with a page over 64 KiB to large bodies', () => {
    it('warns (never fails) the cases whose answers passed the read limit, saying it is the emulator’s own cap', async () => {
      const report = await verifyBug('answers-huge-body');
      expect(ids(report, 'failed')).toEqual([]);
      expect(ids(report, 'warned')).toEqual(['tls', 'accepts-maximal-body', 'accepts-large-body']);
      const large = caseOf(report, 'accepts-large-body').reason;
      expect(large).toMatch(
        /^the large body: answered 200 with a body over 64 KiB: the spec ignores the answer body/,
      );
      expect(large).toMatch(/this emulator stops reading at 64 KiB \(its own safety limit\)/);
      expect(large).not.toMatch(/did not reach/);
    });
  });

  describe('one cause, named once', () => {
    it('every answer 401: the auth cases are inconclusive, and the cause says to check --api-key', async () => {
      const report = await verifyBug('expects-other-key');
      expect(report.causes.map((c) => c.cause)).toEqual(['api-key']);
      expect(report.causes[0]!.summary).toMatch(/^every notification with your key was answered 401/);
      expect(report.causes[0]!.fixFirst).toMatch(/^Check --api-key/);
      expect(report.causes[0]!.cases).toContain('acknowledges-issue');
      for (const id of ['rejects-wrong-api-key', 'rejects-missing-authorization'] as const) {
        expect(caseOf(report, id)).toMatchObject({
          status: 'warned',
          reason: expect.stringMatching(/^inconclusive: .* the same answer as a valid notification/),
        });
      }
    });

    it('every valid body answered 400: the cause names gzip, the Bearer key and the body', async () => {
      const report = await verifyBug('expects-plain-json');
      expect(report.causes.map((c) => c.cause)).toEqual(['valid-bodies-refused']);
      expect(report.causes[0]!.fixFirst).toMatch(
        /gunzipped before parsing \(Content-Encoding: gzip.*Authorization: Bearer.*the spec's JSON object/,
      );
    });

    it('a redirect everywhere: the cause shows the Location', async () => {
      const r = await bugReceiver(KEY, { bug: 'redirects-everything' });
      const report = await verifyReceiver({ receiver: r.url, apiKey: KEY, allowHttp: true, seed: 7 });
      expect(report.causes.map((c) => c.cause)).toEqual(['redirect']);
      expect(report.causes[0]!.summary).toMatch(
        /answered 308 with Location: \/reportbo\/: redirects are never followed/,
      );
    });

    it('every answer 500: the auth cases are inconclusive, not passed', async () => {
      const report = await verifyBug('fails-everything');
      expect(report.causes.map((c) => c.cause)).toEqual(['server-error']);
      expect(caseOf(report, 'rejects-missing-authorization').status).toBe('warned');
    });

    it('a receiver that dies mid-run: named with the last request it answered; the rest is not run', async () => {
      const report = await verifyBug('dies', { diesAfter: 8 });
      const died = report.cases.find((c) => c.status === 'failed')!;
      expect(died.reason).toMatch(
        /^the receiver stopped accepting connections during this case \(connection refused by 127\.0\.0\.1:\d+ \(ECONNREFUSED\) \[case [\w-]+\]\), after it had answered: POST http:\/\/127\.0\.0\.1:\d+\/reportbo: \w+ BookingID \d+ .* answered HTTP \d+/,
      );
      expect(ids(report, 'failed')).toEqual([died.id]);
      const after = report.cases.slice(report.cases.indexOf(died) + 1);
      expect(after.length).toBeGreaterThan(0);
      for (const c of after)
        expect(c.reason).toBe(
          `not run: the receiver stopped accepting connections during ${died.id} (see the cause)`,
        );
      expect(report.causes).toEqual([
        expect.objectContaining({
          cause: 'receiver-stopped',
          cases: [died.id],
          fixFirst: expect.stringMatching(/^Find out why the receiver stopped/),
        }),
      ]);
    });
  });

  describe('the tie rule', () => {
    it('is written once and quoted by both fixes that order notifications, which no longer contradict it', async () => {
      const { CASES } = await import('../src/verify/index.js');
      const { TIE_RULE } = await import('../src/verify/cases/case.js');
      for (const id of [
        'records-final-status',
        'same-second-filename-collision',
        'records-concurrent-issue-and-void',
      ]) {
        const fix = CASES.find((c) => c.id === id)!.fix;
        expect(fix).toContain(`The tie rule: ${TIE_RULE}.`);
        expect(fix).not.toMatch(/identical to, what you have/);
      }
      expect(TIE_RULE).toMatch(
        /the same UpdateDate with another BookingStatus is not a duplicate: the later lifecycle state wins/,
      );
    });
  });

  describe('verify options of the second round', () => {
    it('--fail-fast stops at the first failed case', async () => {
      const report = await verifyBug('fails-everything', {}, { failFast: true });
      expect(ids(report, 'failed')).toEqual(['acknowledges-issue']);
      expect(report.cases.slice(2).every((c) => c.status === 'skipped')).toBe(true);
      expect(caseOf(report, 'answers-within-timeout').reason).toBe(
        'not run: --fail-fast stopped the run at acknowledges-issue',
      );
    });

    it('states the burst concurrency it used, an option, and that the provider does not publish its own', async () => {
      const r = await bugReceiver(KEY);
      const report = await verifyReceiver({
        receiver: r.url,
        apiKey: KEY,
        allowHttp: true,
        burstConcurrency: 20,
        only: ['survives-batch-burst'],
      });
      expect(report.cases[0]!.reason).toMatch(
        /^all 20 redeliveries of the batch at \S+ answered 200: 20 at once \(--burst-concurrency; the provider does not publish how many its batch sends at once\); p50 \d+ ms/,
      );
    });

    it('refuses an ApiKey with a line break as bad usage', async () => {
      await expect(
        verifyReceiver({ receiver: 'https://x.example/', apiKey: 'abc\r\ndef' }),
      ).rejects.toMatchObject({
        code: 'verify_options_invalid',
        message: expect.stringMatching(/^apiKey: holds a control character/),
      });
    });
  });

  describe('a 200 whose answer never ends', () => {
    it('says the body never ended for want of Content-Length, not "answer sooner"', async () => {
      const r = await rawReceiver({
        answer: (socket) =>
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: keep-alive\r\n\r\nOK'),
      });
      const report = await verifyReceiver({
        receiver: r.url,
        apiKey: KEY,
        allowHttp: true,
        // The body never ends, so the attempt lasts this long whatever the machine's speed; at 1.5 s a
        // loaded machine (load 9) read no headers in time and the case judged a timeout instead.
        responseTimeoutMs: 10_000,
        only: ['acknowledges-issue'],
      });
      expect(report.cases[0]!.reason).toMatch(
        /^the Issue: HTTP 200 whose body never ended .*\. The receiver answered 200 in time, but the answer never ended: with neither Content-Length nor Transfer-Encoding: chunked on a kept-alive connection/,
      );
    });
  });

  describe('tls as the sender connects', () => {
    const hosts = ['localhost', '127.0.0.1'];
    /** The tls case alone, run against `receiver` trusting the test CA. */
    const tlsCase = async (receiver: string) =>
      (await verifyReceiver({ receiver, apiKey: KEY, caFile: testCaFile(), only: ['tls'] })).cases[0]!;

    it('fails an endpoint that accepts TLS 1.3 only: TLS 1.2 must be accepted', async () => {
      // The test CA's certificate for localhost and 127.0.0.1, made once per process (no new key).
      const cert = loopbackCertificate();
      const r = await bugReceiver(KEY, { tls: { ...cert, minVersion: 'TLSv1.3' } });
      expect(await tlsCase(r.url)).toMatchObject({
        status: 'failed',
        reason: expect.stringMatching(
          /^the receiver accepts TLSv1\.3 but refuses TLS 1\.2 \(TLS: protocol version refused/,
        ),
      });
    });

    it('names an HTTP/2-only endpoint as such', async () => {
      const cert = loopbackCertificate();
      const server = createSecureServer({ cert: cert.certPem, key: cert.keyPem, allowHTTP1: false });
      server.on('stream', (stream) => stream.respond({ ':status': 200 }) ?? stream.end('OK'));
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const { port } = server.address() as AddressInfo;
        expect(await tlsCase(`https://localhost:${port}/reportbo`)).toMatchObject({
          status: 'failed',
          reason: expect.stringMatching(
            /^the receiver speaks HTTP\/2 only: it refused the ALPN offer "http\/1\.1"/,
          ),
        });
      } finally {
        server.close();
      }
    });

    it('names a missing intermediate certificate when --ca-file was given', async () => {
      const root = testCa();
      const intermediate = intermediateCa(root);
      const cert = createServerCertificate({ ca: intermediate, hosts });
      const r = await bugReceiver(KEY, { tls: cert }); // the leaf alone, no chain
      const tls = await tlsCase(r.url);
      expect(tls).toMatchObject({
        status: 'failed',
        reason: expect.stringMatching(
          /its certificate is issued by "reportbo-emulator intermediate CA", which is not a CA you gave with --ca-file .* the receiver sends no intermediate certificate with it: serve the full chain/,
        ),
      });
      expect(tls.reason).not.toMatch(/trust its CA with the caFile setting/);
    });
  });
});

/** An intermediate CA signed by `root` (the CA a test receiver's leaf comes from). */
function intermediateCa(root: { certPem: string; keyPem: string }) {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '0a1b2c3d';
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 30 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'reportbo-emulator intermediate CA' }]);
  cert.setIssuer(forge.pki.certificateFromPem(root.certPem).subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(root.keyPem) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return {
    commonName: 'reportbo-emulator intermediate CA',
    certPem: forge.pki.certificateToPem(cert),
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

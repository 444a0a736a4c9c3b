/**
 * tls: the connection itself, checked the way the sender connects (TLS 1.2 or higher, the system
 * roots plus the given CA, the certificate verified for the host). When it fails, no notification
 * can arrive, so the runner skips the cases after it.
 */

import { randomBytes, X509Certificate } from 'node:crypto';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import {
  type ConnectionOptions,
  type PeerCertificate,
  rootCertificates,
  connect as tlsConnect,
} from 'node:tls';
import { createServerCertificate } from '../../certs/index.js';
import { classifyError } from '../../delivery/outcome.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, type Outcome, passed, warned } from './case.js';

/** The ALPN list the sender offers (undici over HTTP/1.1). */
const SENDER_ALPN = ['http/1.1'];
/** How the sender connects: TLS 1.2 or higher, the system roots plus the given CAs, ALPN `http/1.1`. */
function asTheSender(host: string, port: number, caPems: readonly string[]): ConnectionOptions {
  return {
    host,
    port,
    ...(isIP(host) ? {} : { servername: host }),
    ca: [...rootCertificates, ...caPems],
    minVersion: 'TLSv1.2',
    // As the sender (undici, HTTP/1.1): an HTTP/2-only endpoint refuses this offer.
    ALPNProtocols: SENDER_ALPN,
    rejectUnauthorized: true,
  };
}

/** A certificate ending sooner than this is warned about. */
export const EXPIRY_WARNING_DAYS = 7;
const DAY_MS = 86_400_000;

export const tls: CaseDefinition = {
  id: 'tls',
  title: CASE_TITLES.tls,
  rule: 'spec "What the service does" 4 and "Limits": the destination must be an HTTPS URL with TLS 1.2 or higher; plain HTTP destinations are unsupported (docs/spec-rules.md#what-the-service-does)',
  fix: 'Serve the receiver over HTTPS with TLS 1.2 or 1.3 and a certificate from a public CA whose names (subjectAltName) include the host in the URL, with its full chain; for a private CA pass it with --ca-file.',
  async run({ options, ctx }) {
    const { signal } = ctx.budget;
    const url = new URL(options.receiver);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const timeoutMs = options.responseTimeoutMs;
    if (url.protocol === 'http:') {
      const error = await plainConnect(host, port, timeoutMs, signal);
      const sent = { sent: `TCP connection to ${url.host}`, received: error ?? 'connected' };
      if (error) return failed(`cannot reach the receiver: ${error}`, [sent]);
      return warned(
        'plain http:// accepted because of --allow-http: the provider only delivers over HTTPS with TLS 1.2 or higher, so production needs an https:// URL',
        [sent],
      );
    }
    return checkTls(host, port, url.host, options.caPems, timeoutMs, signal);
  },
};

/**
 * Ends `socket` and its wait (`done`) once `signal` aborts (the run's budget): every wait of this
 * case takes the run's signal, as the sender's attempts do (docs/verify.md "Speed").
 */
function endOn(signal: AbortSignal, socket: Socket, done: () => void): void {
  const stop = () => {
    socket.destroy();
    done();
  };
  if (signal.aborted) {
    stop();
    return;
  }
  signal.addEventListener('abort', stop, { once: true });
  socket.once('close', () => signal.removeEventListener('abort', stop));
}

/** What a wait the budget cut short answers (the runner reports the case as not judged). */
const CUT = "cut short by the run's --budget";

function plainConnect(
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket: Socket = netConnect({ host, port });
    endOn(signal, socket, () => resolve(CUT));
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(`no connection within ${timeoutMs} ms`);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err) => resolve(classifyError(err, 'connect', `${host}:${port}`).message));
  });
}

function checkTls(
  host: string,
  port: number,
  target: string,
  caPems: string[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const sent = `TLS handshake with ${target} (TLS 1.2 or higher, certificate checked for ${host})`;
    const socket = tlsConnect(asTheSender(host, port, caPems));
    endOn(signal, socket, () => resolve(failed(CUT, [{ sent, received: CUT }])));
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(failed(`no TLS handshake within ${timeoutMs} ms`, [{ sent, received: 'nothing' }]));
    });
    socket.once('secureConnect', async () => {
      const protocol = socket.getProtocol() ?? 'unknown protocol';
      const cert = socket.getPeerCertificate();
      socket.destroy();
      const description = describeCertificate(cert);
      const evidence = [{ sent, received: `${protocol}, ${description}` }];
      if (protocol !== 'TLSv1.2') {
        // "TLS 1.2 or higher": the provider may connect with 1.2; a 1.3-only endpoint refuses it.
        const tls12 = await handshake({ host, port, caPems, timeoutMs, signal, maxVersion: 'TLSv1.2' });
        evidence.push({
          sent: `TLS handshake with ${target} offering TLS 1.2 only`,
          received: tls12 ?? 'TLSv1.2',
        });
        if (tls12) {
          // A TLS 1.2 handshake that fails may be a server that wants a client certificate: 1.3
          // completes before the server refuses one, 1.2 does not. Told apart by experiment.
          const mutual = await mutualTls(host, port, caPems, timeoutMs, signal);
          if (mutual) {
            evidence.push(...mutual.evidence);
            resolve(failed(mutualReason(mutual.finding), evidence));
            return;
          }
          resolve(
            failed(
              `the receiver accepts ${protocol} but refuses TLS 1.2 (${tls12}): the spec requires TLS 1.2 or higher, so a sender that offers 1.2 cannot deliver; enable TLS 1.2 besides 1.3`,
              evidence,
            ),
          );
          return;
        }
      }
      const daysLeft = (Date.parse(cert.valid_to) - Date.now()) / DAY_MS;
      if (daysLeft < EXPIRY_WARNING_DAYS) {
        resolve(
          warned(
            `${protocol} and a valid certificate, but it expires in ${Math.max(0, Math.floor(daysLeft))} days (${cert.valid_to}): renew it before deliveries start failing`,
            evidence,
          ),
        );
        return;
      }
      resolve(passed(`${protocol}, ${description}`, evidence));
    });
    socket.once('error', async (err) => {
      socket.destroy();
      const cause = classifyError(err, 'connect', target).message;
      const code = (err as NodeJS.ErrnoException).code ?? '';
      let why = `the provider could not deliver: ${cause}`;
      const plain = UNTRUSTED_CODES.has(code)
        ? undefined
        : await plainHttpAnswer(host, port, timeoutMs, signal);
      const mutual =
        plain || UNTRUSTED_CODES.has(code)
          ? undefined
          : await mutualTls(host, port, caPems, timeoutMs, signal);
      if (mutual) {
        resolve(failed(mutualReason(mutual.finding), [{ sent, received: cause }, ...mutual.evidence]));
        return;
      }
      if (plain)
        why = `the endpoint speaks plain HTTP, not HTTPS: ${plain}; the provider only delivers over HTTPS with TLS 1.2 or higher, so serve TLS on this port (or put a TLS-terminating proxy in front). To check a local plain-HTTP receiver anyway, give its http:// URL with --allow-http`;
      else if (/NO_APPLICATION_PROTOCOL/.test(code) || /no.application.protocol/i.test(err.message))
        why = `the receiver speaks HTTP/2 only: it refused the ALPN offer "http/1.1" that the sender makes (${code}); the provider's sender speaks HTTP/1.1, so enable HTTP/1.1 on the endpoint (e.g. allowHTTP1, or http1 in the proxy's ALPN list)`;
      else if (UNTRUSTED_CODES.has(code) && caPems.length > 0) {
        const chain = await chainProblem(host, port, caPems, timeoutMs, signal);
        if (chain) why = `the provider could not deliver: ${chain}`;
      }
      resolve(failed(why, [{ sent, received: cause }]));
    });
  });
}

/**
 * A minimal TLS 1.2 ClientHello record (one cipher suite, no extensions): enough for a plain-HTTP
 * server to answer it as a malformed request.
 */
function clientHello(): Buffer {
  const body = Buffer.concat([
    Buffer.from([0x03, 0x03]),
    randomBytes(32),
    Buffer.from([0x00, 0x00, 0x02, 0x00, 0x2f, 0x01, 0x00]),
  ]);
  const handshake = Buffer.concat([Buffer.from([0x01, 0x00, 0x00, body.length]), body]);
  return Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x00, handshake.length]), handshake]);
}

/**
 * Sends a TLS hello over plain TCP and answers the status line when what comes back is HTTP (a
 * plain-HTTP endpoint given as https://), else undefined. A server that reads a whole line before it
 * answers (Python's http.server) does not answer a hello, which has no line end, and answers a line
 * of garbage without a status line: it is sent a full plain-HTTP request line on a second connection.
 */
async function plainHttpAnswer(
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  const hello = await plainExchange(host, port, timeoutMs, signal, clientHello());
  if (hello) return `it answered the TLS handshake with "${hello}" (an HTTP answer to a TLS hello)`;
  const request = Buffer.from(`HEAD / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1');
  const line = await plainExchange(host, port, timeoutMs, signal, request);
  return line
    ? `it did not answer a TLS hello, and answered a plain HTTP request line with "${line}"`
    : undefined;
}

function plainExchange(
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
  hello: Buffer,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = netConnect({ host, port });
    let got = Buffer.alloc(0);
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    endOn(signal, socket, () => done(undefined));
    socket.setTimeout(Math.min(timeoutMs, 3_000), () => done(undefined));
    socket.once('connect', () => socket.write(hello));
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      const text = got.subarray(0, 200).toString('latin1');
      if (!text.startsWith('HTTP/'.slice(0, Math.min(5, text.length)))) done(undefined);
      else if (text.includes('\r\n') || got.length >= 200) done(text.split('\r\n')[0]);
    });
    socket.once('end', () => {
      const text = got.toString('latin1');
      done(text.startsWith('HTTP/') ? text.split('\r\n')[0] : undefined);
    });
    socket.once('error', () => done(undefined));
  });
}

function mutualReason(finding: string): string {
  return `the receiver requires a client certificate (mutual TLS): ${finding}; the provider presents no client certificate (the spec authenticates it by the Bearer ApiKey only), so it cannot deliver. Do not require a client certificate on the notification URL (or make it optional there)`;
}

/** How a TLS exchange ended: `answered`, `closed`, or the error's code. */
function tlsExchange(o: {
  host: string;
  port: number;
  caPems: string[];
  timeoutMs: number;
  signal: AbortSignal;
  client?: { certPem: string; keyPem: string };
}): Promise<string> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      ...asTheSender(o.host, o.port, o.caPems),
      ...(o.client ? { cert: o.client.certPem, key: o.client.keyPem } : {}),
    });
    const done = (how: string) => {
      socket.destroy();
      resolve(how);
    };
    endOn(o.signal, socket, () => done(CUT));
    socket.setTimeout(Math.min(o.timeoutMs, 3_000), () => done('no answer'));
    // After the handshake, a request: a TLS 1.3 server refuses a missing certificate only then.
    socket.once('secureConnect', () =>
      socket.write(`HEAD / HTTP/1.1\r\nHost: ${o.host}\r\nConnection: close\r\n\r\n`),
    );
    socket.once('data', () => done('answered'));
    socket.once('end', () => done('closed'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/**
 * The mutual-TLS experiment: the handshake as the sender makes it (no client certificate), then a
 * request; a "certificate required" alert names it, and a handshake failure that changes when a
 * throwaway client certificate is offered confirms it (the server looked at the certificate).
 */
async function mutualTls(
  host: string,
  port: number,
  caPems: string[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ finding: string; evidence: Array<{ sent: string; received: string }> } | undefined> {
  const without = await tlsExchange({ host, port, caPems, timeoutMs, signal });
  const evidence = [
    {
      sent: `TLS handshake with ${host}:${port} without a client certificate, then a request`,
      received: without,
    },
  ];
  if (/CERTIFICATE_REQUIRED/.test(without))
    return {
      finding: `without a client certificate it ended the connection with the alert "certificate required" (${without})`,
      evidence,
    };
  if (!/HANDSHAKE_FAILURE|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|ACCESS_DENIED/.test(without)) return undefined;
  const throwaway = createServerCertificate({ hosts: ['verify-kit-client.invalid'] });
  const withCert = await tlsExchange({ host, port, caPems, timeoutMs, signal, client: throwaway });
  evidence.push({
    sent: `the same handshake offering a throwaway self-signed client certificate`,
    received: withCert,
  });
  if (withCert === without) return undefined;
  return {
    finding: `without a client certificate the handshake failed (${without}); offering a throwaway one changed the answer (${withCert}): the server checks client certificates`,
    evidence,
  };
}

/** Codes of a certificate whose issuer is not trusted. */
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/**
 * With --ca-file given and the issuer still untrusted: the receiver's certificate comes from an
 * intermediate CA it does not send (an incomplete chain), or from another CA than the one given.
 */
function chainProblem(
  host: string,
  port: number,
  caPems: string[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host,
      port,
      ...(isIP(host) ? {} : { servername: host }),
      rejectUnauthorized: false,
      ALPNProtocols: SENDER_ALPN,
    });
    endOn(signal, socket, () => resolve(undefined));
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', () => resolve(undefined));
    socket.once('secureConnect', () => {
      const leaf = socket.getPeerCertificate(true);
      socket.destroy();
      const issuer = leaf.issuer?.CN ?? leaf.issuer?.O ?? '?';
      const sentChain = leaf.issuerCertificate && leaf.issuerCertificate !== leaf ? 1 : 0;
      const given = caPems.map((pem) => {
        try {
          return new X509Certificate(pem).subject.replace(/\n/g, ', ');
        } catch {
          return '?';
        }
      });
      if (sentChain === 0)
        resolve(
          `its certificate is issued by "${issuer}", which is not a CA you gave with --ca-file (${given.join('; ')}), and the receiver sends no intermediate certificate with it: serve the full chain (the certificate, then every intermediate up to the CA in --ca-file), or give the CA that issued it`,
        );
      else
        resolve(
          `its certificate is issued by "${issuer}" and the chain it sends does not end at a CA you gave with --ca-file (${given.join('; ')}): give the CA at the top of that chain`,
        );
    });
  });
}

/** One handshake (TLS options as given); answers the error's cause, or undefined when it worked. */
function handshake(o: {
  host: string;
  port: number;
  caPems: string[];
  timeoutMs: number;
  signal: AbortSignal;
  maxVersion: 'TLSv1.2';
}): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ ...asTheSender(o.host, o.port, o.caPems), maxVersion: o.maxVersion });
    endOn(o.signal, socket, () => resolve(CUT));
    socket.setTimeout(o.timeoutMs, () => {
      socket.destroy();
      resolve(`no TLS handshake within ${o.timeoutMs} ms`);
    });
    socket.once('secureConnect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err) => {
      socket.destroy();
      resolve(classifyError(err, 'connect', `${o.host}:${o.port}`).message);
    });
  });
}

function describeCertificate(cert: PeerCertificate): string {
  const names = cert.subjectaltname ?? `CN=${cert.subject?.CN ?? '?'}`;
  return `certificate for ${names} issued by ${cert.issuer?.CN ?? cert.issuer?.O ?? '?'}, valid until ${cert.valid_to}`;
}

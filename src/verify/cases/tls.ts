/**
 * tls: the connection itself, checked the way the sender connects (TLS 1.2 or higher, the system
 * roots plus the given CA, the certificate verified for the host). When it fails, no notification
 * can arrive, so the runner skips the cases after it.
 */
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { type PeerCertificate, rootCertificates, connect as tlsConnect } from 'node:tls';
import { classifyError } from '../../delivery/outcome.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, type Outcome, passed, warned } from './case.js';

/** A certificate ending sooner than this is warned about. */
export const EXPIRY_WARNING_DAYS = 7;
const DAY_MS = 86_400_000;

export const tls: CaseDefinition = {
  id: 'tls',
  title: CASE_TITLES.tls,
  rule: 'spec "What the service does" 4 and "Limits": the destination must be an HTTPS URL with TLS 1.2 or higher; plain HTTP destinations are unsupported (docs/spec-rules.md#what-the-service-does)',
  fix: 'Serve the receiver over HTTPS with TLS 1.2 or 1.3 and a certificate from a public CA whose names (subjectAltName) include the host in the URL, with its full chain; for a private CA pass it with --ca-file.',
  async run({ options }) {
    const url = new URL(options.receiver);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const timeoutMs = options.responseTimeoutMs;
    if (url.protocol === 'http:') {
      const error = await plainConnect(host, port, timeoutMs);
      const sent = { sent: `TCP connection to ${url.host}`, received: error ?? 'connected' };
      if (error) return failed(`cannot reach the receiver: ${error}`, [sent]);
      return warned(
        'plain http:// accepted because of --allow-http: the provider only delivers over HTTPS with TLS 1.2 or higher, so production needs an https:// URL',
        [sent],
      );
    }
    return checkTls(host, port, url.host, options.caPems, timeoutMs);
  },
};

function plainConnect(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket: Socket = netConnect({ host, port });
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
): Promise<Outcome> {
  return new Promise((resolve) => {
    const sent = `TLS handshake with ${target} (TLS 1.2 or higher, certificate checked for ${host})`;
    const socket = tlsConnect({
      host,
      port,
      ...(isIP(host) ? {} : { servername: host }),
      ca: [...rootCertificates, ...caPems],
      minVersion: 'TLSv1.2',
      rejectUnauthorized: true,
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(failed(`no TLS handshake within ${timeoutMs} ms`, [{ sent, received: 'nothing' }]));
    });
    socket.once('secureConnect', () => {
      const protocol = socket.getProtocol() ?? 'unknown protocol';
      const cert = socket.getPeerCertificate();
      socket.destroy();
      const description = describeCertificate(cert);
      const evidence = [{ sent, received: `${protocol}, ${description}` }];
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
    socket.once('error', (err) => {
      socket.destroy();
      const cause = classifyError(err, 'connect', target).message;
      resolve(failed(`the provider could not deliver: ${cause}`, [{ sent, received: cause }]));
    });
  });
}

function describeCertificate(cert: PeerCertificate): string {
  const names = cert.subjectaltname ?? `CN=${cert.subject?.CN ?? '?'}`;
  return `certificate for ${names} issued by ${cert.issuer?.CN ?? cert.issuer?.O ?? '?'}, valid until ${cert.valid_to}`;
}

#!/usr/bin/env node
/**
 * Reference ReportBO receiver: what a real integration should do with each notification.
 * HTTPS only (the spec requires TLS >= 1.2). For every POST it checks the Bearer ApiKey, gunzips the
 * body, validates it against the published JSON Schema, stores it under its Content-Disposition
 * filename and answers exactly 200; anything else gets a non-200 status, which the sender redelivers.
 * It also keeps, per booking, the latest state it recorded (newest UpdateDate wins, whatever the
 * arrival order), and shows it at GET /bookings/<BookingID> and GET /booking-numbers/<BookingNumber>:
 * the probe `reportbo-emulator verify --probe` reads.
 *
 * Run: node docker/sample-receiver/server.js --cert server.pem --key server-key.pem --api-key KEY
 * Every option has an environment variable (RECEIVER_…), see `--help`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const here = dirname(fileURLToPath(import.meta.url));
// The schema ships beside this file in the image, and in docs/ of a checkout.
const DEFAULT_SCHEMA = [
  join(here, 'notification.schema.json'),
  join(here, '../../docs/notification.schema.json'),
];
const MAX_COMPRESSED_BYTES = 10 * 1024 * 1024;
const MAX_INFLATED_BYTES = 50 * 1024 * 1024;
// Content-Disposition filename: <yyyyMMdd_HHmmssZ>-<BookingNumber>.json (spec "Endpoints 1").
const SAFE_FILENAME = /^[A-Za-z0-9_.-]{1,200}\.json$/;

const OPTIONS = {
  port: { type: 'string', env: 'RECEIVER_PORT', help: 'TCP port (default 8443; 0 picks a free one)' },
  host: { type: 'string', env: 'RECEIVER_HOST', help: 'address to listen on (default 127.0.0.1)' },
  'api-key': {
    type: 'string',
    env: 'RECEIVER_API_KEY',
    help: 'expected Bearer ApiKey; comma-separated for several',
  },
  cert: { type: 'string', env: 'RECEIVER_CERT', help: 'PEM server certificate (chain) file' },
  key: { type: 'string', env: 'RECEIVER_KEY', help: 'PEM private key file' },
  out: {
    type: 'string',
    env: 'RECEIVER_OUT',
    help: 'directory the bodies are stored in (default ./received)',
  },
  'url-file': {
    type: 'string',
    env: 'RECEIVER_URL_FILE',
    help: 'write the URL it listens on to this file once listening (the image HEALTHCHECK reads it)',
  },
  schema: {
    type: 'string',
    env: 'RECEIVER_SCHEMA',
    help: 'JSON Schema of the body (default: the published one)',
  },
  help: { type: 'boolean', help: 'print this help' },
};

function fail(message) {
  process.stderr.write(`sample-receiver: ${message}\n`);
  process.exit(2);
}

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({ options: OPTIONS, strict: true }));
  } catch (err) {
    fail(`${err.message} (run with --help)`);
  }
  if (values.help) {
    const lines = Object.entries(OPTIONS).map(
      ([name, o]) => `  --${name}${o.env ? ` (env ${o.env})` : ''}\n      ${o.help}`,
    );
    process.stdout.write(`Usage: node server.js [options]\n${lines.join('\n')}\n`);
    process.exit(0);
  }
  const get = (name) => values[name] ?? (OPTIONS[name].env ? process.env[OPTIONS[name].env] : undefined);
  const required = (name) => get(name) || fail(`--${name} (env ${OPTIONS[name].env}) is required.`);
  const schemaFile = get('schema') ?? DEFAULT_SCHEMA.find((f) => readable(f));
  if (!schemaFile) fail(`no JSON Schema found (looked at ${DEFAULT_SCHEMA.join(', ')}); pass --schema.`);
  const port = Number(get('port') ?? 8443);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port: "${get('port')}" is not a port.`);
  return {
    port,
    host: get('host') ?? '127.0.0.1',
    apiKeys: new Set(
      required('api-key')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
    cert: readOrFail(required('cert'), 'cert'),
    key: readOrFail(required('key'), 'key'),
    out: resolve(get('out') ?? 'received'),
    urlFile: get('url-file'),
    schema: JSON.parse(readOrFail(schemaFile, 'schema')),
  };
}

function readable(file) {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}

function readOrFail(file, what) {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    return fail(`--${what}: cannot read ${file} (${err.code ?? err.message}).`);
  }
}

/** Reads the request body up to a cap; resolves null when the cap is exceeded. */
function readBody(req) {
  return new Promise((done, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_COMPRESSED_BYTES) {
        done(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Writes the body under its filename. A redelivery carries the same filename and body: stored once
 * (idempotent). A different body under a taken name (an Exchange notifies old and new reservation
 * with one BookingNumber and UpdateDate) gets a numbered name instead of overwriting. Written off
 * the event loop (a disk that stalls must not stop the server from taking connections and other
 * requests), one write after the other: the next write sees the whole file of the one before.
 */
let writes = Promise.resolve();
function store(dir, filename, text) {
  const write = writes.then(() => storeNow(dir, filename, text));
  writes = write.catch(() => {});
  return write;
}

async function storeNow(dir, filename, text) {
  const base = filename.slice(0, -'.json'.length);
  for (let n = 1; ; n++) {
    const name = n === 1 ? filename : `${base}.${n}.json`;
    const file = join(dir, name);
    try {
      await writeFile(file, text, { flag: 'wx' });
      return name;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    if ((await readFile(file, 'utf8')) === text) return name;
  }
}

// A later lifecycle step wins over an earlier one with the same UpdateDate (an Issue and its Void
// in the same second): Issued < Issued-Exch < Exchanged, Voided.
const STATUS_RANK = { Issued: 0, 'Issued-Exch': 1, Exchanged: 2, Voided: 2 };

/**
 * The latest state of each booking, by BookingID and by BookingNumber. Arrival order is not event
 * order (a redelivery comes back an hour later; a Void can come before its Issue), so a notification
 * replaces the recorded state only when its UpdateDate is newer, or equal with a later status; a
 * duplicate or a late, older notification changes nothing. Never keyed by the filename: an Issue and
 * a Void of the same second share it.
 */
function createBookingState() {
  const byId = new Map();
  const byNumber = new Map();
  const newer = (next, current) => {
    if (!current) return true;
    const a = Date.parse(next.UpdateDate);
    const b = Date.parse(current.UpdateDate);
    if (a !== b) return a > b;
    return (STATUS_RANK[next.BookingStatus] ?? 0) > (STATUS_RANK[current.BookingStatus] ?? 0);
  };
  return {
    /**
     * Records one body. The probe shows the content members verify compares with what it sent
     * (docs/verify.md "--probe"): the passengers' names, the first Ratio amount and the length of the
     * first RawData, as stored.
     */
    record(body) {
      const reservation = body.Reservation;
      const amount = body.Ratio?.[0]?.Amount;
      const rawData = body.Ticket?.[0]?.RawData;
      const state = {
        BookingID: reservation.BookingID,
        BookingNumber: reservation.BookingNumber,
        BookingStatus: reservation.BookingStatus,
        UpdateDate: reservation.UpdateDate,
        Pax: (body.Pax ?? []).map((p) => ({ FirstName: p.FirstName, LastName: p.LastName })),
        ...(amount === undefined ? {} : { RatioAmount: amount }),
        ...(typeof rawData === 'string' ? { RawDataLength: [...rawData].length } : {}),
      };
      if (newer(state, byId.get(state.BookingID))) byId.set(state.BookingID, state);
      if (newer(state, byNumber.get(state.BookingNumber))) byNumber.set(state.BookingNumber, state);
    },
    byId: (id) => byId.get(Number(id)),
    byNumber: (number) => byNumber.get(number),
  };
}

/** Rebuilds the booking state from the bodies stored by earlier runs (a restart keeps it). */
function loadStored(dir, bookings) {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const body = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      if (body?.Reservation?.BookingID !== undefined) bookings.record(body);
    } catch {
      // Not one of ours: ignored.
    }
  }
}

function bearerOk(req, opts) {
  const auth = req.headers.authorization ?? '';
  const bearer = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
  return opts.apiKeys.has(bearer);
}

/** GET /bookings/<BookingID> or /booking-numbers/<BookingNumber>: the recorded state, or 404. */
function probe(pathname, bookings) {
  const m = /^\/(bookings|booking-numbers)\/([^/]+)$/.exec(pathname);
  if (!m) return null;
  const key = decodeURIComponent(m[2]);
  const state = m[1] === 'bookings' ? bookings.byId(key) : bookings.byNumber(key);
  const json = 'application/json; charset=utf-8';
  return state
    ? [200, JSON.stringify(state), json]
    : [404, JSON.stringify({ error: `unknown booking ${key}` }), json];
}

/** Decides one request: returns [status, text, content type?]. Only a fully stored, valid body earns 200. */
async function handle(req, opts, validate, bookings) {
  const { pathname } = new URL(req.url ?? '/', 'https://receiver');
  if (req.method === 'GET' && pathname === '/health') return [200, '{"status":"ok"}'];
  if (req.method === 'GET') {
    if (!bearerOk(req, opts)) return [401, 'unknown or missing Bearer ApiKey'];
    return (
      probe(pathname, bookings) ?? [404, 'GET /bookings/<BookingID> or /booking-numbers/<BookingNumber>']
    );
  }
  if (req.method !== 'POST') return [405, 'only POST is accepted'];
  if (!bearerOk(req, opts)) return [401, 'unknown or missing Bearer ApiKey'];
  if ((req.headers['content-encoding'] ?? '').toLowerCase() !== 'gzip')
    return [415, 'expected Content-Encoding: gzip'];
  const filename = /filename="?([^";]+)"?/.exec(req.headers['content-disposition'] ?? '')?.[1];
  if (!filename || !SAFE_FILENAME.test(filename))
    return [400, 'expected Content-Disposition: attachment; filename=<name>.json'];
  const compressed = await readBody(req);
  if (compressed === null) return [413, 'body too large'];
  let body;
  try {
    body = JSON.parse(gunzipSync(compressed, { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8'));
  } catch (err) {
    return [400, `body is not gzip-compressed JSON: ${err.message}`];
  }
  if (!validate(body)) {
    const first = validate.errors?.[0];
    return [422, `body does not match the schema: ${first?.instancePath || '/'} ${first?.message}`];
  }
  const stored = await store(opts.out, filename, `${JSON.stringify(body, null, 2)}\n`);
  bookings.record(body);
  return [200, stored === filename ? 'OK' : `OK (${stored})`];
}

function main() {
  const opts = readOptions();
  mkdirSync(opts.out, { recursive: true });
  const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
  const addFormats = addFormatsModule.default ?? addFormatsModule;
  // strict: false because the schema is generated and may carry annotations ajv does not know.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(opts.schema);
  const bookings = createBookingState();
  loadStored(opts.out, bookings);

  const server = createServer({ cert: opts.cert, key: opts.key, minVersion: 'TLSv1.2' }, (req, res) => {
    handle(req, opts, validate, bookings)
      .catch((err) => [500, `receiver error: ${err.message}`])
      .then(([status, text, type = 'text/plain; charset=utf-8']) => {
        const name = /filename="?([^";]+)"?/.exec(req.headers['content-disposition'] ?? '')?.[1] ?? '-';
        process.stdout.write(
          `${new Date().toISOString()} ${req.method} ${req.url} ${status} ${name} ${text}\n`,
        );
        res.writeHead(status, { 'content-type': type }).end(text);
      });
  });
  server.listen(opts.port, opts.host, () => {
    const { port } = server.address();
    const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
    process.stdout.write(`sample receiver listening on https://${host}:${port} (storing in ${opts.out})\n`);
    if (opts.urlFile) {
      // A wildcard address is not one to connect to: the HEALTHCHECK asks loopback instead.
      const local = { '0.0.0.0': '127.0.0.1', '::': '[::1]' }[opts.host] ?? host;
      try {
        writeFileSync(opts.urlFile, `https://${local}:${port}\n`);
      } catch (err) {
        fail(`--url-file: cannot write ${opts.urlFile} (${err.code ?? err.message}).`);
      }
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
    });
}

main();

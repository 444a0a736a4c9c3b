/**
 * A plain-HTTP receiver for the verify bench, in its own process: `node verify-receiver.mjs <mode> <key>`.
 * Modes: `refuse` answers 500 to every notification (its probe knows nothing); `stall` answers 200 to
 * every notification but records only the first 5 (a worker that hung); `never` answers 200 and records
 * nothing (a worker that never ran). Prints
 * `listening on http://127.0.0.1:<port>` once ready. Node built-ins only.
 */
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';

const [mode, key] = process.argv.slice(2);
const bookings = new Map();
let recorded = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const m = /^\/bookings\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'GET') {
      const state = m && bookings.get(Number(m[1]));
      res.writeHead(state ? 200 : 404, { 'content-type': 'application/json' });
      res.end(state ? JSON.stringify(state) : '{"error":"unknown booking"}');
      return;
    }
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401).end('unknown key');
      return;
    }
    if (mode === 'refuse') {
      res.writeHead(500).end('internal error');
      return;
    }
    try {
      const r = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')).Reservation;
      if (recorded++ < (mode === 'never' ? 0 : 5)) {
        const current = bookings.get(r.BookingID);
        if (!current || Date.parse(r.UpdateDate) >= Date.parse(current.UpdateDate))
          bookings.set(r.BookingID, { BookingID: r.BookingID, BookingStatus: r.BookingStatus });
      }
      res.writeHead(200).end('OK');
    } catch (err) {
      res.writeHead(400).end(String(err));
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.once('SIGTERM', () => process.exit(0));

/**
 * The search's sketches stay right (decision 0254): random sequences of events, edited resends (a new
 * body), batches (attempts added, notifications settled and dropped by retention), resets and
 * restarts on the data dir (bodies read back without a sketch); after each, every search term drawn
 * from the bodies kept finds exactly what a scan of every body, decoded, finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { adminCall, adminOk } from './helpers/admin-call.js';
import { dataDirRoot, serveOnDataDir, stop } from './helpers/data-dir-emulators.js';
import { behave, receiver } from './helpers/receiver.js';

interface Summary {
  id: string;
}
interface Detail {
  id: string;
  credentialId: string;
  bookingNumber: string;
  filename: string;
  body: { Pax: Array<{ LastName: string }> };
}

/** Names an edited resend gives the first passenger: non-ASCII, spaces, a short one. */
const NAMES = ['Ñúñez-Øst', 'Van der Berg', 'Zyqwert', 'Öz', 'ΟΔΥΣΣΕΥΣ'];

const step = fc.oneof(
  fc.record({ op: fc.constant('issue' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), name: fc.constantFrom(...NAMES) }),
  fc.record({ op: fc.constant('batch' as const) }),
  fc.record({ op: fc.constant('reset' as const) }),
  fc.record({ op: fc.constant('restart' as const) }),
);

/** Every value of a body as the search reads it: `String(value)`, lower case; with its key path. */
function values(value: unknown, at: string[] = [], out: Array<{ at: string[]; text: string }> = []) {
  if (Array.isArray(value)) for (const v of value) values(v, at, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) values(v, [...at, k.toLowerCase()], out);
  else out.push({ at, text: String(value).toLowerCase() });
  return out;
}

/** The brute-force answer: a plain word in a value or in the notification's own names; `Key:text` under that key. */
function bruteMatches(n: Detail, term: string): boolean {
  // A field is letters, digits and dots before the colon (`10:55` is a plain word); one key here.
  const field = /^([A-Za-z][\w]*):(.+)$/.exec(term);
  if (field) {
    const [, key, text] = field as unknown as [string, string, string];
    return values(n.body).some(
      (v) => v.at.at(-1) === key.toLowerCase() && v.text.includes(text.toLowerCase()),
    );
  }
  const text = term.toLowerCase();
  const own = [n.id, n.bookingNumber, n.filename, n.credentialId].some((s) => s.toLowerCase().includes(text));
  return own || values(n.body).some((v) => v.text.includes(text));
}

describe('the search against a scan of every body, as notifications come, change and go', () => {
  it('finds the same notifications after any sequence of events, edits, batches, retention, resets and restarts', async () => {
    const good = await receiver({ defaultBehaviour: behave.status(200) });
    const root = dataDirRoot('reportbo-search-index-');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 7 }), fc.nat(), async (steps, seed) => {
        const dataDir = `${root}/run-${run++}`;
        const settings = { notificationRetention: 4, seed: 1 + (seed % 1000) };
        let emu: RunningEmulator = await serveOnDataDir(dataDir, settings);
        // Kept by a reset and a restart: one credential fails every attempt, the other acknowledges.
        await adminOk(emu, 'POST', '/credentials', {
          id: 'refused',
          apiKey: 'k',
          url: 'http://127.0.0.1:9/hook',
        });
        await adminOk(emu, 'POST', '/credentials', { id: 'good', apiKey: 'k', url: good.url });
        const listed = async () =>
          (await adminOk<{ notifications: Summary[] }>(emu, 'GET', '/notifications?limit=1000'))
            .notifications;
        for (const s of steps) {
          if (s.op === 'issue') {
            for (let i = 0; i < s.count; i++) await adminOk(emu, 'POST', '/events', { type: 'Issue' });
          } else if (s.op === 'edit') {
            const all = await listed();
            if (!all.length) continue;
            const { id } = all[s.pick % all.length]!;
            const { body } = await adminOk<Detail>(emu, 'GET', `/notifications/${id}`);
            body.Pax[0]!.LastName = s.name;
            await adminOk(emu, 'POST', `/notifications/${id}/resend`, { body });
          } else if (s.op === 'batch') {
            await adminOk(emu, 'POST', '/clock/advance', { to: 'next-batch' });
          } else if (s.op === 'reset') {
            await adminOk(emu, 'POST', '/reset');
          } else {
            await stop(emu);
            emu = await serveOnDataDir(dataDir, settings);
          }
          await adminOk(emu, 'GET', '/notifications?wait=settled');
        }
        const kept = await Promise.all(
          (await listed()).map((n) => adminOk<Detail>(emu, 'GET', `/notifications/${n.id}`)),
        );
        // Terms: pieces of values of the bodies kept (3 to 8 characters), the names edits give, one
        // under a key path, an id's prefix, and a word no body holds.
        const terms = new Set(['zyqw', 'ñúñez', 'LastName:der B', 'ΟΔΥΣ', 'n-0000', 'qqqzzx']);
        for (const [i, n] of kept.entries()) {
          const texts = values(n.body)
            .map((v) => v.text)
            .filter((t) => t.length >= 3 && !/["\s]/.test(t));
          const text = texts[(seed + i * 7) % texts.length];
          if (text === undefined) continue;
          const from = (seed + i) % Math.max(1, text.length - 3);
          terms.add(text.slice(from, from + 3 + ((seed + i) % 6)));
        }
        for (const term of terms) {
          const found = await adminCall<{ notifications: Summary[] }>(
            emu,
            'GET',
            `/notifications?limit=1000&q=${encodeURIComponent(term.includes(' ') ? `"${term}"` : term)}`,
          );
          expect(found.status, term).toBe(200);
          const expected = kept.filter((n) => bruteMatches(n, term)).map((n) => n.id);
          expect(found.body.notifications.map((n) => n.id).sort(), term).toEqual(expected.sort());
        }
        await stop(emu);
      }),
      { numRuns: 12 },
    );
    await good.close();
  });
});

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { StoredBody } from '../contract/body-file.js';
import { packBody } from '../contract/packed.js';
import type { NotificationRecord } from '../delivery/index.js';
import { generateNotification } from '../generate/index.js';
import { scanNotifications } from './notification-query.js';
import { bodyTexts, parseSearch } from './notification-search.js';

/** `count` records with real generated, gzipped bodies; every 7th passenger is named Ñúñez-Øst. */
function records(count: number): NotificationRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const body = generateNotification({
      event: 'Issue',
      seed: i + 1,
      at: Date.UTC(2026, 3, 27, 10),
      bookingId: 1_000_000 + i,
    }).target;
    if (i % 7 === 0) body.Pax[0]!.LastName = 'Ñúñez-Øst';
    return {
      id: `n-${String(i + 1).padStart(6, '0')}`,
      bookingNumber: body.Reservation.BookingNumber,
      filename: `f-${i}`,
      credentialId: 'main',
      attempts: [],
      gz: packBody(body),
    } as unknown as NotificationRecord;
  });
}

describe('decoding bodies for a search in batches', () => {
  it('cuts one gunzip of many members into the same texts as one gunzip each, multi-byte names included', () => {
    const all = records(40);
    const texts = new Map<NotificationRecord, string>();
    bodyTexts(all, texts);
    expect(texts.size).toBe(40);
    for (const n of all) expect(texts.get(n)).toBe(gunzipSync(n.gz.bytes()).toString('utf8'));
    expect(texts.get(all[7]!)).toContain('Ñúñez-Øst');
  });

  it('finds the same notifications as decoding each body alone, across batch edges and skipped records', async () => {
    const all = records(100);
    const passes = (n: NotificationRecord) => !n.id.endsWith('3'); // a filter the scan applies before the body
    const search = parseSearch('LastName:ñÚÑEZ')!;
    const found = await scanNotifications(all, { passes, search }, { limit: 5 });
    const expected = all
      .filter(
        (n) => passes(n) && gunzipSync(n.gz.bytes()).toString('utf8').includes('"LastName":"Ñúñez-Øst"'),
      )
      .map((n) => n.id);
    expect(expected.length).toBeGreaterThan(10);
    expect(found.total).toBe(expected.length);
    expect(found.records.map((n) => n.id)).toEqual(expected.slice(-5));
    expect(found.nextCursor).toBe(expected.at(-5));
  });

  it('finds the same pages across many batches, a filter passing few and a cursor included', async () => {
    const all = records(2_600);
    const search = parseSearch('ñúñez')!;
    const passes = (n: NotificationRecord) => n.id.endsWith('7') || n.id.endsWith('0');
    const expected = all
      .filter((n) => passes(n) && gunzipSync(n.gz.bytes()).toString('utf8').includes('Ñúñez-Øst'))
      .map((n) => n.id);
    const first = await scanNotifications(all, { passes, search }, { limit: 40 });
    expect(first.total).toBe(expected.length);
    expect(first.records.map((n) => n.id)).toEqual(expected.slice(-40));
    const second = await scanNotifications(all, { passes, search }, { limit: 40, before: first.nextCursor! });
    expect(second.total).toBe(expected.length);
    expect(second.records.map((n) => n.id)).toEqual(expected.slice(-80, -40));
  });
});

describe('the sketches packed bodies carry (decision 0254)', () => {
  it('never hide a match: 60 substrings of the bodies find the same notifications with and without them', async () => {
    const all = records(300);
    const everyone = (_n: NotificationRecord) => true;
    // The same records with bodies that carry no sketch (as read back from a data dir): decoded, and
    // sketched then.
    const fresh = () =>
      all.map(
        (n) => ({ ...n, gz: new StoredBody(n.gz.file, n.gz.offset, n.gz.length) }) as NotificationRecord,
      );
    const texts = all.map((n) => gunzipSync(n.gz.bytes()).toString('utf8').toLowerCase());
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let k = 0; k < 60; k++) {
      const values = [...texts[next() % texts.length]!.matchAll(/":"([^"]{4,})"/g)].map((m) => m[1]!);
      const value = values[next() % values.length]!;
      const from = next() % (value.length - 3);
      const term = value.slice(from, from + 3 + (next() % 5));
      if (term.length < 3 || /[\s:\\"]/.test(term)) continue;
      const search = parseSearch(term)!;
      const withSketch = await scanNotifications(all, { passes: everyone, search }, {});
      const without = await scanNotifications(fresh(), { passes: everyone, search }, {});
      expect(
        withSketch.records.map((n) => n.id),
        term,
      ).toEqual(without.records.map((n) => n.id));
      expect(withSketch.total, term).toBeGreaterThan(0);
    }
  });
});

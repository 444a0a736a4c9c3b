import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NotificationBodyStrictSchema } from '../src/contract/index.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave } from './helpers/receiver.js';
import { testCaFile, tlsReceiver } from './helpers/tls.js';

describe('notification delivery: request format', () => {
  it('sends every header with its exact value and a gzip body whose booking matches the filename', async () => {
    const r = await tlsReceiver('trusted');
    const emu = await deliveryEmulator({ caFile: testCaFile() });
    const { id: credentialId } = await emu.credential({ apiKey: 'k-abc 123', url: `${r.url}/reportbo/hook` });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();

    expect(r.requests).toHaveLength(1);
    const req = r.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/reportbo/hook');
    const booking = result.reservations[0]!;
    const filename = `20260427_100000Z-${booking.bookingNumber}.json`;
    expect(req.headers['user-agent']).toBe('Service-ReportBO');
    expect(req.headers.authorization).toBe('Bearer k-abc 123');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['content-encoding']).toBe('gzip');
    expect(req.headers['content-length']).toBe(String(req.rawLength));
    expect(req.headers['content-disposition']).toBe(`attachment; filename=${filename}`);
    expect(req.headers['transfer-encoding']).toBeUndefined();

    // Spec "1. Notification delivery (outbound from the service)": gzip of a UTF-8 JSON object valid against
    // the strict contract.
    const body = NotificationBodyStrictSchema.parse(JSON.parse(gunzipSync(req.rawBody).toString('utf8')));
    expect(body.Reservation.BookingNumber).toBe(booking.bookingNumber);
    expect(body.Reservation.BookingID).toBe(booking.bookingId);
    expect(body.Reservation.UpdateDate).toBe('2026-04-27T10:00:00Z');

    const n = await emu.notification(result.notifications[0]!.id);
    expect(n).toMatchObject({
      credentialId,
      state: 'delivered',
      filename,
      deliveredAt: '2026-04-27T10:00:00.000Z',
    });
    expect(n.headers['Content-Length']).toBe(String(req.rawLength));
    expect(n.attempts).toHaveLength(1);
    expect(n.attempts[0]).toMatchObject({
      number: 1,
      outcome: 'http_status',
      statusCode: 200,
      startedAt: '2026-04-27T10:00:00.000Z',
    });
  });

  it('uses the UpdateDate of the body, not the wall clock, in the filename', async () => {
    const r = await tlsReceiver('trusted');
    const emu = await deliveryEmulator({ caFile: testCaFile(), clockStart: '2026-12-31T23:59:58Z' });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    const number = result.reservations[0]!.bookingNumber;
    expect(r.requests[0]!.headers['content-disposition']).toBe(
      `attachment; filename=20261231_235958Z-${number}.json`,
    );
  });

  it('sends identical bytes and headers on every attempt', async () => {
    const r = await tlsReceiver('trusted', { defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ caFile: testCaFile() });
    await emu.credential({ apiKey: 'k', url: r.url });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ by: 'PT3H' });
    expect(r.requests).toHaveLength(4);
    const strip = (h: Record<string, unknown>) => {
      const { host: _host, connection: _connection, ...rest } = h;
      return rest;
    };
    for (const req of r.requests.slice(1)) {
      expect(req.rawBody.equals(r.requests[0]!.rawBody)).toBe(true);
      expect(strip(req.headers)).toEqual(strip(r.requests[0]!.headers));
    }
  });
});

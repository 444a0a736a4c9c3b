import { Hono } from 'hono';
import { exchangeOf } from '../api/index.js';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { jsonListPieces, slicedBody } from './export.js';
import { mount } from './mount.js';

/**
 * `GET /__admin/requests?version=&variant=&username=&outcome=`: the GetAccessToken journal, oldest
 * first; `GET /__admin/requests/:id`: one call with its request and response as they were.
 */
export function requestRoutes(emulator: Emulator): Hono {
  const { journal } = emulator.auth;
  return mount(new Hono(), {
    // Everything the journal keeps (up to journalEntries), written in slices (decision 0229).
    listRequests: (c, { query }) =>
      c.body(
        slicedBody(async () => jsonListPieces('requests', journal.list(query).values()), c.req.raw.signal),
        200,
        { 'Content-Type': 'application/json; charset=utf-8' },
      ),
    getRequest: (_c, { params: { id } }) => {
      const entry = journal.list().find((e) => e.id === id);
      if (!entry) {
        throw new NotFoundError(
          'request_not_found',
          journal.enabled
            ? `No GetAccessToken call "${id}" in the journal (it keeps the last ${journal.capacity.toLocaleString('en-US')}; reset clears it).`
            : `No GetAccessToken call "${id}": the journal is off (${emulator.names.name('journalEntries')} is 0).`,
        );
      }
      return { ...entry, exchange: exchangeOf(entry) ?? null };
    },
  });
}

import { Hono } from 'hono';
import { exchangeOf } from '../api/index.js';
import { journalFilter } from '../auth/journal.js';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { mount } from './mount.js';
import { listPage } from './paging.js';

/**
 * `GET /__admin/requests?version=&variant=&username=&outcome=` and the paging members: the
 * GetAccessToken journal, a page of it, oldest first; `GET /__admin/requests/:id`: one call with its
 * request and response as they were.
 */
export function requestRoutes(emulator: Emulator): Hono {
  const { journal } = emulator.auth;
  return mount(new Hono(), {
    // The journal keeps up to 1,000,000 entries: a page of them (decision 0236).
    listRequests: (c, { query: { limit, before, after, page, ...filter } }) =>
      listPage(
        'requests',
        journal.list(),
        { limit, before, after, page },
        {
          idOf: (e) => e.id,
          what: 'request',
          matches: journalFilter(filter),
          view: (e) => e,
          signal: c.req.raw.signal,
        },
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

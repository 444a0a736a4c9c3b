import { Hono } from 'hono';
import type { JournalFilter } from '../auth/index.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

const FILTERS = ['version', 'variant', 'username', 'outcome'] as const;

/** `GET /__admin/requests?version=&variant=&username=&outcome=`: the GetAccessToken journal, oldest first. */
export function requestRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    listRequests: (c) => {
      const filter: JournalFilter = {};
      for (const key of FILTERS) {
        const v = c.req.query(key);
        if (v !== undefined) filter[key] = v;
      }
      return { requests: emulator.auth.journal.list(filter) };
    },
  });
}

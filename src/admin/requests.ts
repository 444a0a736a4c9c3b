import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** `GET /__admin/requests?version=&variant=&username=&outcome=`: the GetAccessToken journal, oldest first. */
export function requestRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    listRequests: (_c, { query }) => ({ requests: emulator.auth.journal.list(query) }),
  });
}

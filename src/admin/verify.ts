import { Hono } from 'hono';
import { mount } from './mount.js';
import { readJsonBody } from './read-json.js';

/**
 * `POST /__admin/verify`: runs the receiver conformance kit (the CLI's `verify`) with the options
 * as JSON and answers the report `verify --json` writes. It runs its own emulator in this process,
 * so this emulator's state is untouched. The kit is imported on first use, not with the admin API.
 */
export function verifyRoutes(): Hono {
  return mount(new Hono(), {
    verify: async (c) => {
      const body = await readJsonBody(c);
      const { verifyReceiver } = await import('../verify/index.js');
      return verifyReceiver(body as never);
    },
  });
}

import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import type { Emulator } from '../emulator.js';
import { toEmulatorError } from '../errors.js';
import { mount } from './mount.js';

/** Media type of the progress stream (`Accept: application/x-ndjson`): one JSON event a line. */
const NDJSON = 'application/x-ndjson';

/**
 * `POST /__admin/verify`: runs the receiver conformance kit (the CLI's `verify`) with the options
 * as JSON and answers the report `verify --json` writes. It runs its own emulator in this process,
 * so this emulator's state is untouched; it trusts the CAs this emulator trusts (its caFile and
 * POST /__admin/trust) besides the request's own. With `Accept: application/x-ndjson` it streams
 * progress: `caseStart` and `caseEnd` events as cases run, then the `report` (decision 0074).
 * The kit is imported on first use, not with the admin API.
 */
export function verifyRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    verify: async (c, { body }) => {
      const { resolveOptions, runVerify } = await import('../verify/index.js');
      // Bad options are a 400 before anything runs (and before a stream starts).
      const options = await resolveOptions(body);
      options.caPems = [...new Set([...options.caPems, ...emulator.delivery.trustStore.pems()])];
      if (!(c.req.header('accept') ?? '').includes(NDJSON)) return runVerify(options);
      c.header('content-type', NDJSON);
      c.header('cache-control', 'no-store');
      return stream(c, async (s) => {
        const line = (event: unknown) => s.write(`${JSON.stringify(event)}\n`);
        try {
          const report = await runVerify(options, {
            caseStart: (id, title, index, total) => void line({ type: 'caseStart', id, title, index, total }),
            caseEnd: (result, index, total) => void line({ type: 'caseEnd', result, index, total }),
          });
          await line({ type: 'report', report });
        } catch (err) {
          const e = toEmulatorError(err);
          await line({ type: 'error', error: { code: e.code, message: e.message } });
        }
      });
    },
  });
}

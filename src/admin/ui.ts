import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { NotFoundError } from '../errors.js';
import { NOTIFICATION_LINKS } from '../model/notification.js';
import { mount } from './mount.js';

/**
 * The dashboard's modules made from the model rather than kept in ui/ (typed there by a `.d.ts`): the
 * notification members it links, so the page names no member of a notification by hand.
 */
const GENERATED: Record<string, string> = {
  'fields.js': `export const NOTIFICATION_LINKS = ${JSON.stringify(NOTIFICATION_LINKS)};\n`,
};

/** The dashboard's files, shipped in the package's `ui/` folder (no build step, no CDN). */
const UI_DIR = new URL('../../ui/', import.meta.url);
const JS = 'text/javascript; charset=utf-8';
const ASSETS: Record<string, string> = {
  'dashboard.js': JS,
  'admin-token.js': JS,
  'state.js': JS,
  'dom.js': JS,
  'notifications.js': JS,
  'detail.js': JS,
  'attempts.js': JS,
  'curl.js': JS,
  'morph.js': JS,
  'panel.js': JS,
  'setup.js': JS,
  'outages.js': JS,
  'journal.js': JS,
  'verify.js': JS,
  'verify-client.js': JS,
  'route.js': JS,
  'retry.js': JS,
  'triage.js': JS,
  'charts.js': JS,
  'fields.js': JS,
  'dashboard.css': 'text/css; charset=utf-8',
  'inspector.css': 'text/css; charset=utf-8',
};
// Everything the page loads comes from this origin: it works offline and nothing leaks out.
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'";

/**
 * `GET /__admin/ui` (the live dashboard) and `GET /__admin/ui/:file` (its script and style). The page
 * reads and changes the emulator only through the admin API, so it can do nothing curl cannot.
 */
export function uiRoutes(): Hono {
  const cache = new Map<string, Promise<string>>();
  const file = (name: string) => {
    let text = cache.get(name);
    if (!text) {
      text = Object.hasOwn(GENERATED, name)
        ? Promise.resolve(GENERATED[name]!)
        : readFile(new URL(name, UI_DIR), 'utf8');
      text.catch(() => cache.delete(name)); // a failed read is retried, not cached
      cache.set(name, text);
    }
    return text;
  };
  return mount(new Hono(), {
    ui: async (c) =>
      c.html(await file('index.html'), 200, { 'Content-Security-Policy': CSP, 'Cache-Control': 'no-cache' }),
    uiFile: async (c, { params: { file: name } }) => {
      // Own keys only: `__proto__` or `toString` must be a 404, not an inherited value (decision 0121).
      const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!type)
        throw new NotFoundError(
          'ui_file_not_found',
          `The dashboard has no file "${name}"; open /__admin/ui.`,
          {
            accepted: Object.keys(ASSETS),
          },
        );
      return c.body(await file(name), 200, { 'Content-Type': type, 'Cache-Control': 'no-cache' });
    },
  });
}

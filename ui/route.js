// @ts-check
// The view in the URL: `#<tab>[/<id>][?<filters>]`, e.g. `#notifications/n-000006?booking=2FD834`, so
// a reload or a shared link opens the same delivery. `#<id>` alone (`#n-000006`, the short form the
// pretty log prints on attempt lines, decision 0201) opens `#notifications/<id>`.

import { filterQuery, focusWhenDrawn } from './state.js';

/** @typedef {{ section: string, id: string | null, params: URLSearchParams }} Route */

/** @param {string} hash @returns {Route} */
export function parseRoute(hash) {
  const text = hash.replace(/^#/, '');
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  if (/^n-\d+$/.test(path)) return { section: 'notifications', id: path, params: new URLSearchParams() };
  const [section = '', ...rest] = path.split('/');
  const id = rest.join('/');
  return {
    section,
    id: id ? decodeURIComponent(id) : null,
    params: new URLSearchParams(q < 0 ? '' : text.slice(q + 1)),
  };
}

/** @param {string} section @param {string | null} [id] @param {string} [query] */
export const routeHash = (section, id, query) =>
  `#${section}${id ? `/${encodeURIComponent(id)}` : ''}${query ? `?${query}` : ''}`;

/** Goes to a view (a new history entry: Back returns to the one before). @param {string} hash */
export function go(hash) {
  if (location.hash !== hash) location.hash = hash;
}

/** Writes the view into the URL without a history entry (filters typed, a row closed). @param {string} hash */
export function replace(hash) {
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/** The link of this view: the notification opened and the filters. @param {string | null} id */
export const notificationsHash = (id) => routeHash('notifications', id, filterQuery());

/** Opens a notification (a new history entry, so Back closes it). @param {string} id */
export const openNotification = (id) => {
  go(notificationsHash(id));
  // The keyboard moves to what was opened: its title, once the delivery is drawn.
  focusWhenDrawn(`#detail[data-id="${id}"] #detail-title`);
};

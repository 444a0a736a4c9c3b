// @ts-check
// The admin token (serve --admin-token): asked for once, kept for this tab only (sessionStorage, so
// it is gone when the tab closes) and sent on every admin call. Without a token set on the emulator
// nothing is asked. docs/admin-api.md "Security".

const KEY = 'reportbo-emulator.admin-token';
const TOKEN_CODES = new Set(['admin_token_missing', 'admin_token_wrong']);
let declined = false; // the reader cancelled the prompt: not asked again until the page reloads

function stored() {
  return sessionStorage.getItem(KEY);
}

/** Asks for the token (again after a wrong one); false when the reader cancels. @param {string} message */
function ask(message) {
  if (declined) return false;
  const token = window.prompt(message);
  if (token === null || token.trim() === '') {
    declined = true;
    return false;
  }
  sessionStorage.setItem(KEY, token.trim());
  return true;
}

/** The token code of a 401 answer, or null. @param {Response} res @returns {Promise<string | null>} */
async function refusedForToken(res) {
  if (res.status !== 401) return null;
  const body = await res
    .clone()
    .json()
    .catch(() => null);
  const code = body?.error?.code;
  return TOKEN_CODES.has(code) ? code : null;
}

/**
 * fetch with the token; on a token refusal asks for it and tries again.
 * @param {string} url
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function adminFetch(url, init = {}) {
  for (;;) {
    const token = stored();
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    const res = await fetch(url, { ...init, headers });
    const code = await refusedForToken(res);
    if (!code) return res;
    const again = code === 'admin_token_wrong' ? 'That token was refused. ' : '';
    if (!ask(`${again}This emulator's admin API needs its token (--admin-token / REPORTBO_ADMIN_TOKEN):`))
      return res;
  }
}

/**
 * Asks for the token when the emulator wants one; false only when it was refused (or not given).
 * Any other failure is the live stream's to retry (it reconnects by itself).
 * @param {string} admin
 */
export async function whenAuthorized(admin) {
  const res = await adminFetch(`${admin}/config`).catch(() => null);
  return res?.status !== 401;
}

/** EventSource cannot send headers: the stream alone takes the token as a query parameter. @param {string} url */
export function streamUrl(url) {
  const token = stored();
  return token ? `${url}?token=${encodeURIComponent(token)}` : url;
}

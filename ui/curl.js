// @ts-check
// "Copy as curl": the request of a notification as a shell command that sends the same bytes.

/** A shell word in single quotes (a ' inside becomes '\''). @param {string} text */
export const shellQuote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** The largest gzip body inlined in the one-paste variant (as base64 it is a third larger). */
export const MAX_INLINE_GZ_BYTES = 64 * 1024;

/**
 * What the command needs besides the notification: `caFile`, the CA file the emulator was given
 * (`serve --ca-file certs/ca.pem`, the file the tour's `certs` command writes, docs/tour.md), passed to curl as
 * `--cacert` for an https:// receiver; `gzBase64`, the gzip body as sent, for the one-paste variant.
 * @typedef {{ caFile?: string | null, gzBase64?: string }} CurlOptions
 */

/**
 * The curl command that sends this notification again: the same URL and headers, and the gzip body
 * as sent. Without `gzBase64` it reads `<filename>.gz` (the dashboard's "Download body (.gz)" saves it
 * under that name); with it, the body is inlined (`printf … | base64 -d | curl … --data-binary @-`),
 * one paste and nothing to download. curl sets Content-Length itself, so the header is left to it;
 * `-w` prints the receiver's HTTP status on a line of its own after whatever the receiver answered.
 * @param {{ url: string, headers: Record<string, string>, filename: string }} n
 * @param {CurlOptions} [options]
 */
export function curlCommand(n, options = {}) {
  const lines = [`curl -sS -X POST ${shellQuote(n.url)}`];
  // --cacert replaces curl's own CA bundle: only for an https:// receiver, and only with the CA file
  // the emulator itself trusts it through.
  if (options.caFile && n.url.startsWith('https://')) lines.push(`  --cacert ${shellQuote(options.caFile)}`);
  for (const [name, value] of Object.entries(n.headers)) {
    if (name.toLowerCase() === 'content-length') continue;
    lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  }
  lines.push(`  -w ${shellQuote('\\nHTTP %{http_code}\\n')}`);
  if (options.gzBase64 === undefined) {
    lines.push(`  --data-binary @${shellQuote(`${n.filename}.gz`)}`);
    return lines.join(' \\\n');
  }
  lines.push('  --data-binary @-');
  // printf '%s' keeps the base64 text as is; base64 -d turns it back into the gzip bytes.
  return `printf '%s' ${shellQuote(options.gzBase64)} | base64 -d | ${lines.join(' \\\n')}`;
}

/** Base64 of bytes (the browser's btoa takes a binary string). @param {Uint8Array} bytes */
export function base64Of(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Copies text to the clipboard; where the browser refuses (not a secure context), selects the
 * element's text so the reader can copy it by hand.
 * @param {string} text
 * @param {HTMLElement | null} shown
 * @returns {Promise<boolean>} whether the clipboard took it
 */
export async function copyText(text, shown) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (shown) {
      const range = document.createRange();
      range.selectNodeContents(shown);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
    }
    return false;
  }
}

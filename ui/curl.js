// @ts-check
// "Copy as curl": the request of a notification as a shell command that sends the same bytes.

/** A shell word in single quotes (a ' inside becomes '\''). @param {string} text */
export const shellQuote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The curl command that sends this notification again: the same URL and headers, and the gzip body
 * as sent, read from `<filename>.gz` (the dashboard's "Download body (.gz)" saves it under that name).
 * curl sets Content-Length itself from the file, so the header is left to it.
 * @param {{ url: string, headers: Record<string, string>, filename: string }} n
 */
export function curlCommand(n) {
  const lines = [`curl -sS -X POST ${shellQuote(n.url)}`];
  for (const [name, value] of Object.entries(n.headers)) {
    if (name.toLowerCase() === 'content-length') continue;
    lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  }
  lines.push(`  --data-binary @${shellQuote(`${n.filename}.gz`)}`);
  return lines.join(' \\\n');
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

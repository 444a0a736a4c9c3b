/** Escaping for the JUnit XML reports (src/report/junit.ts). */

/** Text safe inside an XML 1.0 attribute or element: control characters dropped, markup escaped. */
export function xmlEscape(s: string): string {
  // XML 1.0 cannot carry most control characters, even escaped.
  return [...s]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 || ch === '\t' || ch === '\n' || ch === '\r')
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Milliseconds as JUnit's `time` attribute (seconds, three decimals). */
export function junitSeconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

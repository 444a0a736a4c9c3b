/** Where and why strict JSON parsing fails, or undefined when the text is valid JSON. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

/**
 * Node 20's JSON.parse does not always say where it failed, and the YAML parser (which gives
 * positions) accepts more than JSON (trailing commas, comments). The first bad character is found
 * by bisection: a prefix that only fails for being cut short is still good.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const full = failure(text);
  if (full === undefined) return undefined;
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    const f = failure(text.slice(0, mid));
    if (f === undefined || cutShort(f, mid)) good = mid;
    else bad = mid;
  }
  const offset = bad - 1;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const message = full
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
    .replace(/ (?:in JSON )?at position \d+.*$/s, '');
  return { line, column, message };
}

function failure(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function cutShort(message: string, length: number): boolean {
  if (/Unexpected end of JSON input|Unterminated string/.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return at !== null && Number(at[1]) >= length;
}

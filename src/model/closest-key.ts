import { distance } from 'fastest-levenshtein';

/**
 * The valid key a misspelt one most likely meant (`adminTokn` → `adminToken`), or undefined when
 * none is close: at most a third of the key's length in edits (case-insensitive), at least one.
 * Settings files, `startEmulator` options and environment variables name it in their errors, so a
 * typo is never dropped without a word.
 */
export function closestKey(key: string, validKeys: Iterable<string>): string | undefined {
  const wanted = key.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const valid of validKeys) {
    const d = distance(wanted, valid.toLowerCase());
    if (d < bestDistance) {
      best = valid;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** `unknown setting "adminTokn" (did you mean "adminToken"?)`: the sentence every such error uses. */
export function unknownKeyMessage(what: string, key: string, validKeys: Iterable<string>): string {
  const near = closestKey(key, validKeys);
  return near === undefined
    ? `unknown ${what} "${key}"`
    : `unknown ${what} "${key}" (did you mean "${near}"?)`;
}

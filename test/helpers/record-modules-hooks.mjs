// Module hooks of record-modules.mjs (they run on the loader thread).
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (file) appendFileSync(file, `${url}\n`);
  return result;
}

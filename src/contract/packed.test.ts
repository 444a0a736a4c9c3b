import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateNotification } from '../generate/index.js';
import { packBody, unpackBody } from './packed.js';

const body = generateNotification({ event: 'Issue', seed: 7, at: '2026-04-27T10:00:00Z' }).target;

describe('packed bodies', () => {
  it('are the gzipped UTF-8 JSON of the body, and unpack to an equal body', async () => {
    const gz = packBody(body);
    expect(gunzipSync(gz.bytes()).toString('utf8')).toBe(JSON.stringify(body));
    expect(gunzipSync(await gz.read()).toString('utf8')).toBe(JSON.stringify(body));
    expect(unpackBody(gz)).toEqual(body);
    expect(gz.length).toBe(gz.bytes().length);
  });
});

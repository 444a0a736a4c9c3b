import { describe, expect, it } from 'vitest';
import { slicedBody } from './export.js';

/** A body of `count` pieces of 1 KiB, counting how many were made. */
function counted(count: number) {
  let made = 0;
  const body = slicedBody(async () => ({
    head: '[',
    next: () => (made < count ? `${String(made++).padStart(1024, '.')}` : undefined),
    tail: ']',
  }));
  return { body, made: () => made };
}

describe('slicedBody', () => {
  it('makes a slice only when the reader asks for one (back-pressure)', async () => {
    const { body, made } = counted(100_000);
    const reader = body.getReader();
    await reader.read(); // the head
    await reader.read(); // one slice
    const afterOne = made();
    expect(afterOne).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 50));
    // Nobody read: at most the one chunk the stream holds ahead was made meanwhile.
    expect(made()).toBeLessThanOrEqual(afterOne * 2 + 1);
    expect(made()).toBeLessThan(100_000);
    await reader.cancel();
  });

  it('stops making pieces once the reader cancels (the client went)', async () => {
    const { body, made } = counted(1_000_000);
    const reader = body.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    const atCancel = made();
    await new Promise((r) => setTimeout(r, 50));
    expect(made()).toBe(atCancel);
  });

  it('writes head, every piece and tail, in order', async () => {
    const { body } = counted(3);
    const text = await new Response(body).text();
    expect(text).toBe(`[${['0', '1', '2'].map((d) => d.padStart(1024, '.')).join('')}]`);
  });
});

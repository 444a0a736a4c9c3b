import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BODY_OWN_SLAB_BYTES,
  BODY_SLAB_BYTES,
  BodyFile,
  concatBodies,
  type StoredBody,
} from './body-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'body-file-'));
  dirs.push(d);
  return d;
}

/** `count` random byte strings, most of a body's size, every 40th larger than a shared slab takes. */
function payloads(count: number): Buffer[] {
  return Array.from({ length: count }, (_, i) =>
    randomBytes(i % 40 === 39 ? BODY_OWN_SLAB_BYTES + 1 + i : 900 + ((i * 37) % 700)),
  );
}

describe('the body file', () => {
  it('gives back every body it kept, byte for byte, at once and without holding the event loop', async () => {
    const file = new BodyFile(tempDir());
    const bytes = payloads(400); // ~10 slabs: most in the file, the newest in memory
    const kept = bytes.map((b) => file.keep(b));
    for (const [i, body] of kept.entries()) {
      expect(body.length).toBe(bytes[i]?.length);
      expect(body.bytes().equals(bytes[i] as Buffer)).toBe(true);
      expect((await body.read()).equals(bytes[i] as Buffer)).toBe(true);
    }
  });

  it('keeps bodies out of memory: once the file is gone only the newest slab can still be read', async () => {
    const file = new BodyFile(tempDir());
    const bytes = payloads(200).filter((b) => b.length <= BODY_OWN_SLAB_BYTES);
    const kept = bytes.map((b) => file.keep(b));
    file.close();
    const last = kept.at(-1) as StoredBody;
    expect(last.bytes().equals(bytes.at(-1) as Buffer)).toBe(true);
    const first = kept[0] as StoredBody;
    expect(() => first.bytes()).toThrow(/could not be read back: the body file was closed/);
    await expect(first.read()).rejects.toThrow(/could not be read back: the body file was closed/);
    // Of 200 bodies of ~1.2 KB, only those of the last 64 KiB slab are in memory.
    const readable = kept.filter((b) => {
      try {
        b.bytes();
        return true;
      } catch {
        return false;
      }
    });
    expect(readable.length).toBeLessThanOrEqual(BODY_SLAB_BYTES / 900);
    expect(readable.length).toBeGreaterThan(0);
  });

  it('answers copies: bytes read from the newest slab stay as they were when the slab is filled again', () => {
    const file = new BodyFile(tempDir());
    const bytes = payloads(120).filter((b) => b.length <= BODY_OWN_SLAB_BYTES);
    const first = file.keep(bytes[0] as Buffer);
    const held = first.bytes();
    for (const b of bytes.slice(1)) file.keep(b); // fills the slab, writes it, fills it again
    expect(held.equals(bytes[0] as Buffer)).toBe(true);
    expect(first.bytes().equals(bytes[0] as Buffer)).toBe(true);
  });

  it('leaves no file behind: it is unlinked as soon as it is opened', () => {
    const dir = tempDir();
    const file = new BodyFile(dir);
    const kept = payloads(100).map((b) => file.keep(b));
    expect(kept[0]?.bytes().length).toBe(kept[0]?.length);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the bodies in memory when its directory cannot take a file, and loses none', async () => {
    const file = new BodyFile(join(tempDir(), 'missing', 'dir'));
    const bytes = payloads(300);
    const kept = bytes.map((b) => file.keep(b));
    for (const [i, body] of kept.entries()) {
      expect(body.bytes().equals(bytes[i] as Buffer)).toBe(true);
      expect((await body.read()).equals(bytes[i] as Buffer)).toBe(true);
    }
  });

  it('lays bodies end to end as separate reads would, neighbours, gaps, memory and other files alike', () => {
    const file = new BodyFile(tempDir());
    const other = new BodyFile(tempDir());
    const kept = payloads(300).map((b, i) => (i % 17 === 5 ? other.keep(b) : file.keep(b)));
    const shared = kept.slice(10, 40).flatMap((b) => [b, b]); // a body shared by two notifications
    const picks = [kept, kept.filter((_, i) => i % 3 !== 1), [...kept].reverse(), shared, kept.slice(-5), []];
    for (const list of picks)
      expect(concatBodies(list).equals(Buffer.concat(list.map((b) => b.bytes())))).toBe(true);
  });
});

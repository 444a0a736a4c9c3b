import { describe, expect, it } from 'vitest';
import { RingBuffer } from './ring-buffer.js';

const pushAll = (ring: RingBuffer<number>, from: number, to: number) => {
  const evicted: Array<number | undefined> = [];
  for (let i = from; i <= to; i++) evicted.push(ring.push(i));
  return evicted;
};

describe('RingBuffer', () => {
  it('keeps every item, oldest first, and evicts nothing below its capacity', () => {
    const ring = new RingBuffer<number>(3);
    expect(pushAll(ring, 1, 3)).toEqual([undefined, undefined, undefined]);
    expect(ring.filter()).toEqual([1, 2, 3]);
    expect(ring.size).toBe(3);
  });

  it('answers the oldest item when a push displaces it, and keeps the last capacity items', () => {
    const ring = new RingBuffer<number>(3);
    pushAll(ring, 1, 3);
    expect(pushAll(ring, 4, 8)).toEqual([1, 2, 3, 4, 5]);
    expect(ring.filter()).toEqual([6, 7, 8]);
    expect(ring.size).toBe(3);
  });

  it('filters oldest first across the wrap point', () => {
    const ring = new RingBuffer<number>(5);
    pushAll(ring, 1, 12);
    expect(ring.filter()).toEqual([8, 9, 10, 11, 12]);
    expect(ring.filter((n) => n % 2 === 0)).toEqual([8, 10, 12]);
  });

  it('starts over empty after clear, filling and wrapping again', () => {
    const ring = new RingBuffer<number>(2);
    pushAll(ring, 1, 5);
    ring.clear();
    expect(ring.filter()).toEqual([]);
    expect(ring.push(10)).toBeUndefined();
    expect(ring.push(11)).toBeUndefined();
    expect(ring.push(12)).toBe(10);
    expect(ring.filter()).toEqual([11, 12]);
  });

  it('works with a capacity of one and refuses a capacity below one', () => {
    const ring = new RingBuffer<string>(1);
    expect(ring.push('a')).toBeUndefined();
    expect(ring.push('b')).toBe('a');
    expect(ring.filter()).toEqual(['b']);
    expect(() => new RingBuffer(0)).toThrow(/positive integer/);
  });
});

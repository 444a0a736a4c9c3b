import { describe, expect, it } from 'vitest';
import { FaultStore } from './faults.js';
import { seededUnit } from './token-source.js';

describe('FaultStore', () => {
  it('affects the next matching call only when neither count nor fraction is given', () => {
    const store = new FaultStore(() => 0);
    store.add({ kind: 'drop', version: '1.7' });
    expect(store.take('1.6', 'json')).toBeUndefined();
    expect(store.take('1.7', 'json')).toMatchObject({ kind: 'drop', matched: 1, remaining: 0 });
    expect(store.take('1.7', 'json')).toBeUndefined();
    expect(store.list()).toEqual([]);
  });

  it('lets "soap" match both SOAP versions and nothing else', () => {
    const store = new FaultStore(() => 0);
    store.add({ kind: 'malformed', variant: 'soap', count: 3 });
    expect(store.take('1.7', 'xml')).toBeUndefined();
    expect(store.take('1.7', 'soap11')?.kind).toBe('malformed');
    expect(store.take('1.6', 'soap12')?.kind).toBe('malformed');
  });

  it('hits about the given fraction of calls with a seeded source, the same calls for the same seed', () => {
    const run = () => {
      const store = new FaultStore(seededUnit(42));
      store.add({ kind: 'status', status: 503, fraction: 0.25 });
      return Array.from({ length: 400 }, () => (store.take('1.7', 'json') ? 1 : 0));
    };
    const hits = run();
    const count = hits.reduce<number>((a, b) => a + b, 0);
    expect(count).toBeGreaterThan(60);
    expect(count).toBeLessThan(140);
    expect(run()).toEqual(hits);
  });

  it('refuses a delay without delayMs and both count and fraction, naming the field', () => {
    const store = new FaultStore(() => 0);
    expect(() => store.add({ kind: 'delay' })).toThrow('Fault field delayMs: required for kind "delay".');
    expect(() => store.add({ kind: 'drop', count: 2, fraction: 0.5 })).toThrow(
      /fraction: give either count or fraction/,
    );
    expect(() => store.add({ kind: 'explode' })).toThrow(/Fault field kind/);
  });
});

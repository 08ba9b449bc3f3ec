import { describe, expect, it } from 'vitest';
import { KeyRing, redactKey } from './keyRing.ts';

describe('KeyRing', () => {
  const ring = new KeyRing([
    { key: 'demo-free', plan: 'free' },
    { key: 'demo-enterprise', plan: 'enterprise', perMinute: 1_000_000, perDay: 100_000_000 },
    { key: 'big-co', plan: 'enterprise' },
  ]);

  it('finds a key with its plan limits from the contract', () => {
    expect(ring.find('demo-free')).toMatchObject({ plan: 'free', limits: { perMinute: 60, perDay: 1000 } });
  });

  it('gives Pro and Business their contract limits', () => {
    const more = new KeyRing([{ key: 'p', plan: 'pro' }, { key: 'b', plan: 'business' }]);
    expect(more.find('p')?.limits).toEqual({ perMinute: 300, perDay: 10_000 });
    expect(more.find('b')?.limits).toEqual({ perMinute: 1000, perDay: 100_000 });
  });

  it('gives enterprise keys their custom limits', () => {
    expect(ring.find('demo-enterprise')?.limits).toEqual({ perMinute: 1_000_000, perDay: 100_000_000 });
    expect(ring.find('big-co')?.limits).toEqual({ perMinute: 1_000_000, perDay: 100_000_000 });
  });

  it('does not find unknown keys, prefixes or keys differing in case', () => {
    expect(ring.find('demo-fre')).toBeUndefined();
    expect(ring.find('DEMO-FREE')).toBeUndefined();
    expect(ring.find('')).toBeUndefined();
  });

  it('counts keys in buckets and logs them by labels that do not contain the key', () => {
    const entry = ring.find('demo-enterprise')!;
    expect(entry.bucketId).not.toContain('demo-enterprise');
    expect(entry.label).not.toContain('demo-enterprise');
    expect(redactKey('demo-enterprise')).toBe('demo…(15)');
  });

  it('refuses a key with an unknown plan, naming the plans', () => {
    expect(() => new KeyRing([{ key: 'x', plan: 'gold' as never }])).toThrow(/free, pro, business, enterprise/);
  });

  it('removes a key', () => {
    const local = new KeyRing([{ key: 'k', plan: 'free' }]);
    expect(local.delete('k')).toBe(true);
    expect(local.find('k')).toBeUndefined();
  });

  it('forgets a key found before once it is removed, replaced or set again', () => {
    const local = new KeyRing([{ key: 'k', plan: 'free' }, { key: 'j', plan: 'pro' }]);
    expect(local.find('k')?.plan).toBe('free');
    local.set({ key: 'k', plan: 'business' });
    expect(local.find('k')?.plan).toBe('business');
    expect(local.delete('k')).toBe(true);
    expect(local.find('k')).toBeUndefined();
    expect(local.find('j')?.plan).toBe('pro');
    local.replaceAll([{ key: 'i', plan: 'free' }]);
    expect(local.find('j')).toBeUndefined();
    expect(local.find('i')?.plan).toBe('free');
  });

  it('finds every key when more keys are used than it remembers', () => {
    const many = Array.from({ length: 600 }, (_, i) => ({ key: `key-${i}`, plan: 'free' as const }));
    const local = new KeyRing(many);
    for (let round = 0; round < 2; round++) for (const { key } of many) expect(local.find(key)?.label).toBeDefined();
    expect(local.find('key-600')).toBeUndefined();
  });
});

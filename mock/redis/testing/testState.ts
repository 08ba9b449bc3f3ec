// The state the mock/redis tests start from, in memory or in Redis.
import type { Pet } from '../../../spec/types.ts';
import type { ApiKeyConfig } from '../../state/keyRing.ts';

export const testFixtures: Pet[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
  { id: 3, name: 'Bella', categoryId: 1, status: 'available' },
  { id: 4, name: 'Max', categoryId: 3, status: 'pending' },
  { id: 5, name: 'Luna', categoryId: 2 },
  { id: 6, name: 'Coco', categoryId: 1, status: 'available' },
];

export const testKeys: ApiKeyConfig[] = [
  { key: 'demo-free', plan: 'free' },
  { key: 'demo-pro', plan: 'pro' },
  { key: 'demo-enterprise', plan: 'enterprise', perMinute: 1_000_000, perDay: 100_000_000 },
];

/** Half past twelve: far from a minute or day boundary, so windows do not roll mid-test. */
export const testStart = Date.UTC(2026, 5, 1, 12, 30, 0);

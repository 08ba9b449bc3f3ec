import type { LoadRequest } from './load.ts';

const key = { authorization: 'Bearer demo-enterprise' };
const json = { ...key, 'content-type': 'application/json' };

export interface Scenario {
  id: string;
  request: LoadRequest | LoadRequest[];
  /** What differs between the mock's answer and Prism's, for the table. */
  note: string;
}

/** The requests the mock and Prism are both driven with; the ceiling answers only the first. */
export const scenarios: Scenario[] = [
  { id: 'GET /pets?limit=20', request: { method: 'GET', path: '/pets?limit=20', headers: key }, note: 'mock: 20 real pets; Prism: its one-item example' },
  { id: 'GET /pets?limit=100&status=sold', request: { method: 'GET', path: '/pets?limit=100&status=sold', headers: key }, note: 'mock: up to 100 filtered pets; Prism: its one-item example' },
  { id: 'GET /pets/{id}', request: { method: 'GET', path: '/pets/42', headers: key }, note: 'mock: the stored pet; Prism: an example pet' },
  { id: 'POST /pets', request: { method: 'POST', path: '/pets', headers: json, body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'pending' }) }, note: 'mock: validated and stored; Prism: validated, an example back' },
  { id: 'GET /pets without key', request: { method: 'GET', path: '/pets' }, note: 'mock: 401, then 429 once the address has spent the Free minute quota; Prism: 401' },
];

export const ceilingScenario = scenarios[0]!;

// `--against mock`: the project's mock in-process (openMock, the default fixtures), reached by a
// transport that hands each request to its core, as a host does. No socket, no port.
import { openMock, type Mock } from '../../mock/core/openMock.ts';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { responseOf, type Transport } from '../http/transport.ts';
import type { DriftTarget } from './driftSide.ts';

export const mockBaseUrl = 'http://mock.invalid/v1';

/** A transport answering through a mock's core. */
export function mockTransport(mock: Pick<Mock, 'answer'>): Transport {
  return {
    async send({ method, url, headers, body }) {
      const { pathname, search } = new URL(url);
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      const bytes = body === undefined ? undefined : new TextEncoder().encode(body);
      if (bytes) lower['content-length'] = String(bytes.byteLength);
      const answer = await mock.answer({ method, url: `${pathname}${search}`, headers: lower, body: bytes });
      return responseOf(answer.status, answer.headers, answer.body ?? '');
    },
  };
}

/** Opens the mock with its default fixtures (and a profile, if given) as a drift side. Close it after. */
export async function openMockTarget(options: { spec?: LoadedSpec; apiKey?: string; profile?: DeploymentProfile } = {}): Promise<{ target: DriftTarget; close: () => Promise<void> }> {
  const mock = await openMock({ ...(options.spec ? { spec: options.spec } : {}), ...(options.profile ? { profile: options.profile } : {}) });
  return {
    target: { label: 'mock', baseUrl: mockBaseUrl, apiKey: options.apiKey ?? 'demo-pro', transport: mockTransport(mock), now: () => mock.arrival() },
    close: () => mock.close(),
  };
}

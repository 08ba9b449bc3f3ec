// The in-process host every adapter stands on (MSW in Node and in the browser, Playwright, the Vite
// plugin): plain requests straight to the framework-free core, on no timer a test can fake. Nothing
// here needs Node.
import type { MockCore } from '../core/createMockCore.ts';
import { bodyIsSent } from '../pipeline/readRequest.ts';
import { keptFor } from '../pipeline/keptFor.ts';
import { isPromise } from '../state/awaitable.ts';
import type { MockAddress } from './mockAddress.ts';
import { createPetsMockControl, type ControlSend } from './petsMockControl.ts';
import type { PetsMockHost } from './petsMockHost.ts';

/** The client address an in-process request comes from: the one `inject()` gives, so request logs and rate-limit buckets read the same. */
const inProcessClient = '127.0.0.1';

/** The control handle's requests, straight to the core. */
export function coreControlSend(core: Pick<MockCore, 'answer'>): ControlSend {
  const encoder = new TextEncoder();
  return async ({ body, ...request }) => {
    const answer = await core.answer({ ...request, client: inProcessClient, ...(body === undefined ? {} : { body: encoder.encode(body) }) });
    return { status: answer.status, body: answer.body ?? '' };
  };
}

/**
 * A mock's core as the adapters' host: the URL read against the mock's address, the answer's
 * Location written back under it, header names in lower case, a body of bytes. A fault rule's
 * reset rejects with the core's ConnectionResetError (`code` ECONNRESET). `close` is told when the
 * host closes, after which a request is refused with why.
 */
export function hostOnCore(core: Pick<MockCore, 'spec' | 'answer' | 'answerNow' | 'arrival' | 'bodyLimit'>, { address, control, controlToken, close }: { address: MockAddress; control: boolean; controlToken: string | undefined; close: () => Promise<void> }): PetsMockHost {
  const encoder = new TextEncoder();
  let closed = false;
  /** The answer's Location written back under the mock's address (`/v1/pets/7` as the page must follow it). */
  const underAddress = <A extends { headers: Record<string, string> }>(answer: A): A =>
    answer.headers.location ? { ...answer, headers: { ...answer.headers, location: address.fromMockPath(answer.headers.location) } } : answer;
  // A page repeats its URLs: each one's path under the mock is read once, not parsed per request.
  const mockPath = keptFor((url: string) => address.toMockPath(url, { control }));
  const respond: PetsMockHost['respond'] = ({ method, url, headers, body, arrivedAt }) => {
    const path = mockPath(url);
    if (path === undefined) throw new Error(`The pets mock at ${address.baseUrl} was handed ${url}, which is not under it.`);
    if (closed) throw new Error(`The pets mock at ${address.baseUrl} was closed, and ${method} ${url} still reached it. Remove its handlers or routes, or create a new mock.`);
    // A copy, names in lower case: the request log reads the headers after the answer is out
    // (RequestLog.addLater), so they must be the mock's own, not an object the caller may change.
    const lowerCased: Record<string, string> = {};
    for (const name in headers) lowerCased[name.toLowerCase()] = headers[name]!;
    // As a socket would carry it: a body's length (as inject() adds it), and the body only when the server would read one.
    const sent = body && body.byteLength > 0 ? body : undefined;
    if (sent && lowerCased['content-length'] === undefined) lowerCased['content-length'] = String(sent.byteLength);
    const read = bodyIsSent(lowerCased) ? (sent ?? new Uint8Array(0)) : undefined;
    const answer = core.answerNow({ method, url: path, headers: lowerCased, body: read, client: inProcessClient, arrivedAt });
    return isPromise(answer) ? answer.then(underAddress) : underAddress(answer);
  };
  return {
    address,
    spec: core.spec,
    bodyLimit: core.bodyLimit,
    control: createPetsMockControl(coreControlSend(core), { controlToken }),
    pathOf: (url) => (typeof url === 'string' ? mockPath(url) : address.toMockPath(url, { control })),
    arrival: () => core.arrival(),
    async handle(request) {
      const answer = await respond(request);
      return { status: answer.status, headers: answer.headers, body: answer.body === null ? null : encoder.encode(answer.body) };
    },
    respond,
    async answer(request) {
      const path = address.toMockPath(`${address.origin}${request.url}`, { control });
      if (path === undefined) throw new Error(`The pets mock at ${address.baseUrl} was handed ${request.url}, which is not under it.`);
      if (closed) throw new Error(`The pets mock at ${address.baseUrl} was closed, and ${request.method} ${request.url} still reached it. Start the server again.`);
      return underAddress(await core.answerNow({ ...request, url: path }));
    },
    async close() {
      closed = true;
      await close();
    },
  };
}

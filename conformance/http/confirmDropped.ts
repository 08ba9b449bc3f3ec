// A request without a key given up at the transport is either the deployment down or the deployment
// dropping such requests (a WAF rule that closes them). Requests with the key served on either side
// of one more plain try tell them apart, for the model to judge (judgeDropped): the service behind
// any gateway cannot be down and up around it.
import { bucketOf, type ApiRequest } from './exchange.ts';
import { QuotaExhaustedError, type PacedClient } from './pacedClient.ts';
import { TransportError } from './transport.ts';

/** How many lost requests without a key are followed by the requests that tell a drop from an outage. */
const askedAtMost = 2;

/** The cases of the requests that tell a drop from an outage: the list with the key, and the plain one without. */
export const droppedCases = { around: 'dropped/answered-around', plain: 'dropped/plain' } as const;

/**
 * After a request without a key got its connection closed on every try: a list with the key, then
 * the plainest request without one (a list: a malformed request may be closed on, RFC 9112, 9.6, a
 * plain one is owed an answer), then the list with the key again. Served on both sides while the
 * plain request is lost too, and no request with a key ever lost, the deployment drops requests
 * without a key: nothing more is sent without one (`PacedClient.mute`), so the run stays bounded.
 * Anything else is left to the run's count of requests in a row that got no answer.
 */
export async function confirmDropped(client: PacedClient, checkId: string, request: ApiRequest): Promise<void> {
  const bucket = bucketOf(request.auth);
  // Only requests without a key: the lists with the key that answer around them reach the service
  // behind any gateway, which is then up. A keyed request lost while keyless ones are answered may
  // be that service down (a gateway answers 401s itself), which no run can tell from a drop. And
  // only connections closed: a request that timed out is left to judgeSilence (a slow 401 is no drop).
  if (bucket !== 'anonymous' || client.muted(bucket) || request.case === droppedCases.plain || request.case === droppedCases.around) return;
  if (client.unanswered.at(-1)?.timedOut === true) return;
  // Twice a credential at most: a deployment that loses requests as it likes is not asked for ever.
  if (client.askedIfDropped(bucket) > askedAtMost) return;
  const list = { method: 'GET', path: '/pets?limit=1', operationId: 'listPets' } as const;
  const other: ApiRequest = { ...list, auth: 'key', intent: 'valid', case: droppedCases.around };
  const plain: ApiRequest = { ...list, auth: 'none', intent: 'unauthenticated', case: droppedCases.plain };
  // These answers do not count as the deployment answering again: requests lost in a row stay
  // counted, so a deployment that keeps losing requests still ends the run as it did.
  const inARow = client.failuresInARow;
  const answered = async (r: ApiRequest) => {
    try {
      const exchange = await client.send(checkId, r);
      return r.auth === 'none' || (exchange.response.status >= 200 && exchange.response.status < 300);
    } catch (error) {
      if (error instanceof TransportError || error instanceof QuotaExhaustedError) return false;
      throw error;
    } finally {
      client.failuresInARow = Math.max(client.failuresInARow, inARow);
    }
  };
  if (!(await answered(other)) || (await answered(plain))) return;
  // Requests of another credential lost too, ever in the run: the deployment or the network fails
  // as it likes, and the run's count of lost requests judges that, not a drop of one credential.
  const othersLost = () => client.unanswered.some((u) => u.givenUp === true && u.bucket !== bucket && u.wire !== true);
  if ((await answered(other)) && !othersLost()) client.mute(bucket);
}

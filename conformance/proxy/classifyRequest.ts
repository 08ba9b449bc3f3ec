import { componentSchema } from '../../spec/loadSpec.ts';
import type { Intent } from '../http/exchange.ts';
import { parseBody } from '../http/exchange.ts';
import type { RequestView } from '../model/requestView.ts';
import type { SpecValidators } from '../specValidators.ts';

const int64Max = 9223372036854775807n;
const wholeNumber = (text: string) => /^\d+$/.test(text) && BigInt(text) <= int64Max;

/**
 * What a request the proxy saw asks of the deployment, read from the wire as the model reads it:
 * `valid` when the contract says it must be served (a documented operation, a key the deployment
 * accepts, every parameter and the body as the spec defines them), `unauthenticated` without a
 * usable key, and `edge` otherwise: a request the proxy does not hold to a documented status, only
 * to "never a 5xx". Nobody generated it, so when in doubt it is never called valid.
 */
export function classifyRequest(view: RequestView, validators: SpecValidators): Intent {
  if (view.credential.kind !== 'key') return 'unauthenticated';
  const once = (name: string) => view.query.getAll(name).length <= 1;
  switch (view.operation) {
    case 'listPets': {
      const limit = view.query.get('limit');
      const status = view.query.get('status');
      const statuses = (componentSchema(validators.spec, 'PetStatus').enum ?? []) as string[];
      const limitOk = limit === null || (wholeNumber(limit) && Number(limit) >= 1 && Number(limit) <= 100);
      return once('limit') && once('status') && limitOk && (status === null || statuses.includes(status)) ? 'valid' : 'edge';
    }
    case 'getPet':
      return view.petId !== undefined && wholeNumber(view.petId) ? 'valid' : 'edge';
    case 'createPet': {
      const json = /^application\/json\s*(;|$)/i.test(view.headers['content-type'] ?? '');
      const body = view.body === undefined ? undefined : parseBody(view.body).json;
      return json && body !== undefined && validators.check(componentSchema(validators.spec, 'NewPet'), body).valid ? 'valid' : 'edge';
    }
    case 'listStoreOrders':
      return 'valid';
    default:
      return 'edge';
  }
}

// The operation step: the store's answer for listPets, createPet and getPet, the spec's (through
// Prism) for the others; and the same store operation prepared ahead, to run with the admission.
import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { PetStatus } from '../../spec/types.ts';
import { petJson, type StoredNewPet as NewPet } from '../state/petJson.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import type { PetStep, PetStepResult } from '../state/stateParts.ts';
import { jsonType, storeOperations, type ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import { storeAway } from './admission.ts';
import { bytesOf } from './body.ts';
import { readJsonBody } from './readRequest.ts';
import { bodyText, lowerCased } from './answerBody.ts';
import { faultTarget } from './faults.ts';
import { preferenceFree } from './prefer.ts';
import { realisticBody } from './realisticBody.ts';
import { decodeSegment, type RouteMatch } from './route.ts';
import { validate } from './validation.ts';

type Checked = NonNullable<Exchange['checked']>;

/**
 * Prepares the store's operation before the admission, so that the store admits the request and
 * runs it in one step (one round trip on a shared store): for a bearer request to a store
 * operation that no Prefer forces an answer for and no fault rule may take, whose body is at hand,
 * or worth reading before the key is checked (a key this replica last found valid: the body of a
 * key the mock does not know is never read before its 401). The body is read and validated now;
 * a request that turns out bad prepares nothing, and is refused in its turn, after its admission
 * (a 401 or 429 first, then a fault rule, then the 4xx).
 */
export function prepareStoreStep(ctx: Pick<ApiContext, 'state' | 'bodyLimit' | 'validation' | 'maxPreferDelayMs' | 'defaultStatus' | 'pages'>, x: Exchange): Promise<void> | undefined {
  const { op, route } = x;
  if (!op || !route || !storeOperations.has(op.operationId) || x.credentials?.kind !== 'bearer') return undefined;
  // Rules this process knows changed are read first: the step then goes ahead unless one may take the request.
  const refreshed = ctx.state.faults.refresh();
  // A store that does not answer is told once: the 503's headers do not wait on it again.
  if (refreshed) return refreshed.catch(storeAway(x)).then(() => prepareRefreshed(ctx, x, op));
  return prepareRefreshed(ctx, x, op);
}

/** prepareStoreStep once the fault rules are current: at once in memory, with no promise. */
function prepareRefreshed(ctx: Pick<ApiContext, 'state' | 'bodyLimit' | 'validation' | 'maxPreferDelayMs' | 'defaultStatus' | 'pages'>, x: Exchange, op: SpecOperation): Promise<void> | undefined {
  if (!preferenceFree(ctx, x, op)) return undefined;
  if (op.operation.requestBody !== undefined && x.request.body === undefined && !ctx.state.keys.lastSeen?.((x.credentials as { token: string }).token)) return undefined;
  if (ctx.state.faults.mayFire(faultTarget(x, op))) return undefined;
  try {
    const bytes = bytesOf(x);
    if (isPromise(bytes)) return bytes.then(() => prepareRead(ctx, x, op), () => undefined);
  } catch {
    return undefined;
  }
  prepareRead(ctx, x, op);
  return undefined;
}

/** The body read ahead: parsed, validated and made the store's step, or nothing prepared. */
function prepareRead(ctx: Pick<ApiContext, 'bodyLimit' | 'validation' | 'defaultStatus' | 'pages'>, x: Exchange, op: SpecOperation): void {
  try {
    x.body = readJsonBody(x.request, x.bytes, x.method, ctx.bodyLimit);
    validate(ctx, x as Exchange & { route: RouteMatch; op: SpecOperation });
    x.step = petStep(ctx, op, x.checked!, x.body);
  } catch {
    // Refused in its turn, once admitted: the body and validation steps find the same fault again.
    x.checked = undefined;
  }
}

/** Operation step: the store's result (run with the admission, or now), or the spec's answer. */
export function operate(ctx: Pick<ApiContext, 'state' | 'spec' | 'examples' | 'log' | 'prefix' | 'defaultStatus' | 'pages' | 'petText'>, x: Exchange & { op: SpecOperation }): Awaitable<{ status: number; body: string | null }> {
  const { op } = x;
  if (x.step && x.stepResult) return stepAnswer(ctx, x, x.step, x.stepResult);
  if (storeOperations.has(op.operationId)) {
    const step = petStep(ctx, op, x.checked!, x.body);
    const result = ctx.state.runStep(step);
    return isPromise(result) ? result.then((done) => stepAnswer(ctx, x, step, done)) : stepAnswer(ctx, x, step, result);
  }
  return specAnswer(ctx, x, op, x.checked!);
}

/** The spec's answer (through Prism) for an operation the store does not hold. */
async function specAnswer(ctx: Pick<ApiContext, 'spec' | 'examples' | 'log'>, x: Exchange, op: SpecOperation, checked: Checked): Promise<{ status: number; body: string | null }> {
  try {
    const answered = await ctx.examples.respond(op);
    const realistic = await realisticBody(ctx.spec, { op, status: answered.status, seed: 'static', query: checked.query, params: checked.params });
    Object.assign(x.headers, lowerCased(answered.headers));
    return { status: answered.status, body: bodyText(x, realistic ?? answered.body) };
  } catch (error) {
    ctx.log?.error({ err: error }, 'prism could not mock the operation');
    throw new ApiError('INTERNAL_ERROR', `The mock could not answer ${op.operationId} from the OpenAPI document: ${(error as Error).message}`);
  }
}

/** The store's operation for a valid request of listPets, createPet or getPet. */
function petStep(ctx: Pick<ApiContext, 'defaultStatus' | 'pages'>, op: SpecOperation, { params, query }: Checked, body: unknown): PetStep {
  switch (op.operationId) {
    case 'createPet': {
      const input = body as NewPet;
      return { kind: 'create', input: input.status === undefined && ctx.defaultStatus ? { ...input, status: ctx.defaultStatus } : input };
    }
    case 'getPet':
      return { kind: 'get', id: params.petId as number };
    default: {
      const limit = query.limit as number;
      const status = query.status as PetStatus | undefined;
      // The page's text is kept until the store changes: a store that still has this version sends none.
      return { kind: 'page', limit, status, heldVersion: ctx.pages.heldVersion(limit, status) };
    }
  }
}

/** The answer to what the store's operation gave. */
function stepAnswer(ctx: Pick<ApiContext, 'state' | 'prefix' | 'pages' | 'petText'>, x: Exchange, step: PetStep, result: PetStepResult): Awaitable<{ status: number; body: string | null; value?: unknown }> {
  x.headers['content-type'] = jsonType;
  switch (result.kind) {
    case 'create': {
      if ('exhausted' in result) throw new ApiError('IDS_EXHAUSTED');
      x.headers.location = `${ctx.prefix}/pets/${result.pet.id}`;
      return { status: 201, body: petJson(result.pet), value: result.pet };
    }
    case 'get': {
      if (result.pet) return { status: 200, body: ctx.petText(result.pet), value: result.pet };
      const segment = x.path.split('/').filter(Boolean).pop() ?? '';
      throw new ApiError('PET_NOT_FOUND', `No pet has the id ${decodeSegment(segment)}. List pets with GET /v1/pets to find an existing id.`);
    }
    case 'page': {
      const { limit, status } = step as PetStep & { kind: 'page' };
      const text = ctx.pages.take(result, limit, status);
      if (text !== undefined) return { status: 200, body: text };
      // The copy this answer counted on went with a newer version meanwhile: read the page again.
      const fresh = { kind: 'page', limit, status } as const;
      const again = ctx.state.runStep(fresh);
      return isPromise(again) ? again.then((page) => stepAnswer(ctx, x, fresh, page)) : stepAnswer(ctx, x, fresh, again);
    }
  }
}

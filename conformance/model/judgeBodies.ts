// Every answer's body as the contract shapes it: JSON, labelled application/json, wherever the
// contract gives the answer a body; matching the schema the spec gives its status, every integer
// field of the contract within int64; an Error whose status is the HTTP status.
import type { OpenAPIV3 } from 'openapi-types';
import { findOperation, responseSchema } from '../../spec/loadSpec.ts';
import type { Exchange } from '../http/exchange.ts';
import { isInt64, type LosslessValue } from '../../common/json/losslessJson.ts';
import type { SpecValidators } from '../specValidators.ts';
import { isUnservedStoreOrders, storeOrdersIsOpen } from './judgeAuthCases.ts';
import { bodyNotWhole, judgedAsOperation, requestLine } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';

const json = /^application\/json\s*(;|$)/i;
const unserved = (exchange: Exchange) => `GET /store/orders answered ${exchange.response.status}, so its answers are not judged. The contract mentions this endpoint but shows nothing of it.`;

/** The content-type check's rules: a body where the contract gives one, labelled application/json, valid JSON. */
export function judgeContentType(exchange: Exchange, validators: SpecValidators): Judgement[] {
  if (!judgedAsOperation(exchange)) return [];
  const v = new JudgementList();
  const { status, headers, body, json: parsed } = exchange.response;
  if (isUnservedStoreOrders(exchange)) {
    // Not served: what a deployment answers for an endpoint the contract only mentions is not judged.
    v.warn('body.json-labelled', exchange, unserved(exchange), { kind: 'store-unserved' });
    return v.judgements;
  }
  if (exchange.request.method === 'HEAD' || status === 204 || status === 304) return v.judgements;
  const op = findOperation(validators.spec, exchange.operationId);
  const expectsBody = responseSchema(op, status) !== undefined || status >= 400;
  if (body === '') {
    v.expectOfAnswer(!expectsBody, 'body.present', exchange, () => `${requestLine(exchange)} answered ${status} with an empty body; the contract gives this answer a JSON body.`, { kind: `empty ${status}` });
    return v.judgements;
  }
  const type = headers['content-type'] ?? '';
  if (!v.expectOfAnswer(json.test(type), 'body.json-labelled', exchange, () => `${requestLine(exchange)} answered ${status} with Content-Type "${type || '(none)'}"; it must be application/json.`, { kind: `type ${status}` })) return v.judgements;
  // Only a whole body shows whether it is JSON: the start the suite kept of a longer one is not judged.
  const notWhole = bodyNotWhole(exchange);
  if (notWhole !== undefined) {
    v.inconclusive('body.json', exchange, notWhole);
    return v.judgements;
  }
  v.expectOfAnswer(parsed !== undefined, 'body.json', exchange, () => `${requestLine(exchange)} answered ${status} with a body that is not valid JSON.`, { kind: `json ${status}` });
  return v.judgements;
}

type Schema = OpenAPIV3.SchemaObject;

/**
 * Where a field the schema types integer (Pet's `id` and `categoryId`, int64; Error's `status`)
 * holds an integer outside int64, as `body[3].id`-style paths with its digits, wherever in the
 * answer the schema puts it (each Pet of a list, through `allOf`). A field the schema does not
 * name (an extra field, open to the deployment: a uint64 hash, a big decimal) is not held to it.
 */
export function integerFieldsBeyondInt64(schema: Schema | undefined, value: LosslessValue, root = 'body'): { path: string; digits: string }[] {
  const found: { path: string; digits: string }[] = [];
  // Every schema a value is held to at once: its own and, through allOf, anyOf and oneOf, its parts'.
  const flatten = (schemas: readonly Schema[]): Schema[] => schemas.flatMap((s) => [s, ...flatten([...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])] as Schema[])]);
  const walk = (schemas: readonly Schema[], v: LosslessValue, path: string) => {
    const all = flatten(schemas);
    if (all.some((s) => s.type === 'integer')) {
      if (typeof v === 'bigint' && !isInt64(v)) found.push({ path, digits: v.toString() });
      return;
    }
    if (Array.isArray(v)) {
      const items = all.flatMap((s) => ((s as OpenAPIV3.ArraySchemaObject).items !== undefined ? [(s as OpenAPIV3.ArraySchemaObject).items as Schema] : []));
      if (items.length > 0) v.forEach((item, index) => walk(items, item, `${path}[${index}]`));
    } else if (v !== null && typeof v === 'object') {
      // In the answer's order; a member no schema names is an extra field, not held to anything here.
      for (const [key, item] of Object.entries(v)) {
        const named = all.flatMap((s) => (s.properties !== undefined && Object.hasOwn(s.properties, key) ? [s.properties[key] as Schema] : typeof s.additionalProperties === 'object' ? [s.additionalProperties as Schema] : []));
        if (named.length > 0) walk(named, item, `${path}.${key}`);
      }
    }
  };
  if (schema !== undefined) walk([schema], value, root);
  return found;
}

/** The response-schema check's rules: the status's schema, its integer fields within int64, an Error's status the HTTP status. */
export function judgeResponseSchema(exchange: Exchange, validators: SpecValidators): Judgement[] {
  if (!judgedAsOperation(exchange)) return [];
  const v = new JudgementList();
  const { status, json: parsed } = exchange.response;
  if (isUnservedStoreOrders(exchange)) {
    v.warn('body.schema', exchange, unserved(exchange), { kind: 'store-unserved' });
    return v.judgements;
  }
  const notWhole = bodyNotWhole(exchange);
  if (notWhole !== undefined) {
    v.inconclusive('body.schema', exchange, notWhole);
    return v.judgements;
  }
  if (parsed === undefined) return v.judgements;
  const op = findOperation(validators.spec, exchange.operationId);
  const schema = validators.schemaFor(op, status);
  if (!schema) return v.judgements;
  const verdict = validators.check(schema, parsed);
  const what = status >= 400 ? 'Error body' : 'body';
  if (!verdict.valid && status < 400 && storeOrdersIsOpen(op.operationId)) {
    v.warn('body.schema', exchange, `${requestLine(exchange)} answered ${status} with a body unlike the spec's open guess at a store order listing: ${verdict.problem}. The contract shows nothing of this endpoint, so this is a warning.`, { kind: `schema ${status}` });
    return v.judgements;
  }
  if (!v.expectOfAnswer(verdict.valid, 'body.schema', exchange, () => `${requestLine(exchange)} answered ${status} with a ${what} that does not match the spec: ${verdict.problem}.`, { kind: `schema ${status} ${verdict.problem}`, ...(verdict.fields ? { fields: verdict.fields } : {}) })) return v.judgements;
  // JSON.parse would read an integer past int64 as a plausible double: the lossless reading holds
  // the contract's integer fields to int64 (only those: an extra field's number is the deployment's).
  const outside = exchange.response.value === undefined ? [] : integerFieldsBeyondInt64(schema, exchange.response.value);
  if (!v.expectOfAnswer(outside.length === 0, 'body.int64', exchange, () => `${requestLine(exchange)} answered ${status} with ${outside.map((o) => `${o.path} ${o.digits}`).join(', ')}, beyond the int64 range the contract's integer fields are held to.`, { kind: `int64 ${status}` })) return v.judgements;
  if (status >= 400) {
    const bodyStatus = (parsed as { status?: unknown }).status;
    v.expectOfAnswer(bodyStatus === status, 'error.status-equal', exchange, () => `${requestLine(exchange)} answered ${status} with an Error whose status is ${JSON.stringify(bodyStatus)}; the contract says it equals the HTTP status.`, { kind: `error-status ${status}`, fields: ['status'] });
  }
  return v.judgements;
}

/**
 * A create with nothing a deployment may refuse (the proxy classes it valid: a JSON NewPet of name,
 * categoryId and status only, a name of 1 to 40 printable characters, a categoryId the
 * deployment's own pets were seen with, the key it accepts) is not refused with a 4xx. status-codes
 * cannot tell, since 400 is a status createPet documents, for a body "missing required fields or
 * [with] invalid values" only.
 */
export function judgeValidCreate(exchange: Exchange): Judgement[] {
  if (exchange.operationId !== 'createPet' || exchange.intent !== 'valid') return [];
  const { status } = exchange.response;
  // A 5xx is status-codes'; 401, 403 and 429 say the deployment did not judge the body (inconclusive).
  if (status >= 500) return [];
  const v = new JudgementList();
  v.expect(status < 400, 'valid-creates.created', exchange, () => `${requestLine(exchange)} sent the body ${exchange.request.body ?? ''} and was answered ${status}. Nothing in it is missing or invalid: its name is 1 to 40 printable characters, its categoryId one the deployment's own pets have, and it has no field beyond NewPet's; the contract refuses a body with 400 only when "the body is missing required fields or has invalid values".`, { kind: `refused ${status}` });
  return v.judgements;
}

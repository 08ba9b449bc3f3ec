import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { defaultSpecPath, findOperation, loadSpec } from './loadSpec.ts';

const spec = await loadSpec();
const responseOf = (operationId: string, status: string) =>
  findOperation(spec, operationId).operation.responses[status] as OpenAPIV3.ResponseObject | undefined;

describe('spec/openapi.yaml', () => {
  it('is a valid OpenAPI document according to swagger-parser', async () => {
    await expect(SwaggerParser.validate(defaultSpecPath)).resolves.toBeTruthy();
  });

  it('loads dereferenced, with no $ref left', () => {
    expect(JSON.stringify(spec.document)).not.toContain('"$ref"');
  });

  it('is version 1.0.0 with production and staging servers ending in /v1', () => {
    expect(spec.document.info.version).toBe('1.0.0');
    expect(spec.document.servers?.map((s) => s.description)).toEqual(['Production', 'Staging']);
    for (const server of spec.document.servers ?? []) expect(server.url).toMatch(/\/v1$/);
  });

  it('declares the tags animals, Store and Pets and a global bearer security scheme', () => {
    expect(spec.document.tags?.map((t) => t.name)).toEqual(['animals', 'Store', 'Pets']);
    expect(spec.document.security).toEqual([{ bearerAuth: [] }]);
    expect(spec.document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares exactly the schemas Pet, NewPet, PetStatus, Pets and Error', () => {
    expect(Object.keys(spec.document.components?.schemas ?? {}).sort()).toEqual(['Error', 'NewPet', 'Pet', 'PetStatus', 'Pets']);
  });

  it('declares the four operations of the contract', () => {
    expect(spec.operations.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      'get /pets listPets',
      'post /pets createPet',
      'get /pets/{petId} getPet',
      'get /store/orders listStoreOrders',
    ]);
    expect(findOperation(spec, 'listStoreOrders').operation.tags).toEqual(['Store']);
    for (const id of ['listPets', 'createPet', 'getPet']) expect(findOperation(spec, id).operation.tags).toEqual(['animals']);
  });

  it('bounds limit to 1..100 with a default of 20 and filters by PetStatus', () => {
    const [limit, status] = findOperation(spec, 'listPets').parameters;
    expect(limit).toMatchObject({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(status).toMatchObject({ name: 'status', in: 'query', schema: { enum: ['available', 'pending', 'sold'] } });
  });

  it('requires a JSON NewPet body on createPet, with name and categoryId required', () => {
    const body = findOperation(spec, 'createPet').operation.requestBody as OpenAPIV3.RequestBodyObject;
    expect(body.required).toBe(true);
    expect(body.content['application/json']?.schema).toMatchObject({ required: ['name', 'categoryId'] });
  });

  it('marks getPet deprecated with its removal on 5 December 2030', () => {
    const getPet = findOperation(spec, 'getPet').operation as OpenAPIV3.OperationObject & { 'x-sunset'?: string };
    expect(getPet.deprecated).toBe(true);
    expect(getPet['x-sunset']).toBe('2030-12-05');
  });

  it('documents 401 and 429 with Retry-After on every operation, 400 on createPet and 404 on getPet', () => {
    for (const op of spec.operations) {
      expect(responseOf(op.operationId, '401'), op.operationId).toBeDefined();
      expect(responseOf(op.operationId, '429')?.headers?.['Retry-After'], op.operationId).toBeDefined();
    }
    expect(Object.keys(findOperation(spec, 'createPet').operation.responses)).toEqual(['201', '400', '401', '429']);
    expect(Object.keys(findOperation(spec, 'getPet').operation.responses)).toEqual(['200', '401', '404', '429']);
    expect(Object.keys(findOperation(spec, 'listPets').operation.responses)).toEqual(['200', '401', '429']);
  });

  it('requires the three X-RateLimit headers on every response of every operation, and Retry-After on every 429', () => {
    for (const op of spec.operations) {
      for (const [status, response] of Object.entries(op.operation.responses)) {
        const headers = (response as OpenAPIV3.ResponseObject).headers ?? {};
        const required = Object.entries(headers).filter(([, h]) => (h as OpenAPIV3.HeaderObject).required === true).map(([name]) => name);
        const expected = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', ...(status === '429' ? ['Retry-After'] : [])];
        expect(required.sort(), `${op.operationId} ${status}`).toEqual(expected.sort());
      }
    }
  });

  it('declares of GET /store/orders only what the contract says: its tag, bearer security, 401 and 429', () => {
    const op = findOperation(spec, 'listStoreOrders').operation;
    expect(op.tags).toEqual(['Store']);
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(op.responses)).toEqual(['200', '401', '429']);
    expect(op.parameters ?? []).toEqual([]);
    // The success answer is open: no invented shape for a store order, and it says so.
    const ok = op.responses['200'] as OpenAPIV3.ResponseObject;
    expect(ok.description).toMatch(/not shown/i);
    const items = (ok.content?.['application/json']?.schema as OpenAPIV3.ArraySchemaObject).items as OpenAPIV3.SchemaObject;
    expect(Object.keys(items)).toEqual(['description']);
  });
});

describe('spec/openapi.gen.ts', () => {
  it('is what openapi-typescript generates from the current document (run npm run gen:types)', async () => {
    const generated = astToString(await openapiTS(new URL(`file://${defaultSpecPath}`)));
    const committed = await readFile(fileURLToPath(new URL('./openapi.gen.ts', import.meta.url)), 'utf8');
    // The CLI adds a banner comment; the types themselves must match.
    expect(committed.endsWith(generated)).toBe(true);
  });
});

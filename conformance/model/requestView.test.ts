import { describe, expect, it } from 'vitest';
import { viewRequest } from './requestView.ts';

const view = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  viewRequest({ path, request: { method, url: `http://api.test/v1${path}`, headers, ...(body !== undefined ? { body } : {}) } });

describe('viewRequest: which operation a request names', () => {
  it('reads GET /pets as listPets and POST /pets as createPet', () => {
    expect(view('GET', '/pets').operation).toBe('listPets');
    expect(view('POST', '/pets').operation).toBe('createPet');
  });

  it('reads GET /pets/{petId} as getPet with the petId as sent', () => {
    const v = view('GET', '/pets/42');
    expect(v.operation).toBe('getPet');
    expect(v.petId).toBe('42');
  });

  it('reads GET /store/orders as listStoreOrders, the endpoint the contract only mentions', () => {
    expect(view('GET', '/store/orders').operation).toBe('listStoreOrders');
  });

  it('keeps the query apart from the path and reads its parameters', () => {
    const v = view('GET', '/pets?limit=5&status=sold');
    expect(v.operation).toBe('listPets');
    expect(v.pathname).toBe('/pets');
    expect(v.query.get('limit')).toBe('5');
    expect(v.query.get('status')).toBe('sold');
  });

  it('decodes a percent-encoded petId', () => {
    expect(view('GET', '/pets/%34%32').petId).toBe('42');
  });

  it('keeps a petId whose percent-encoding is malformed as sent', () => {
    const v = view('GET', '/pets/%E0%A4%A');
    expect(v.operation).toBe('getPet');
    expect(v.petId).toBe('%E0%A4%A');
  });

  it('keeps a petId beyond 2^53 as its exact digits', () => {
    expect(view('GET', '/pets/9007199254740993').petId).toBe('9007199254740993');
  });

  it('reads a method sent in lower case as that method', () => {
    expect(view('get', '/pets').method).toBe('GET');
    expect(view('get', '/pets').operation).toBe('listPets');
  });

  it.each([
    ['HEAD', '/pets'],
    ['OPTIONS', '/pets'],
    ['PUT', '/pets/1'],
    ['PATCH', '/pets/1'],
    ['DELETE', '/pets/1'],
    ['POST', '/pets/1'],
    ['POST', '/store/orders'],
    ['GET', '/pets/'],
    ['GET', '/pets/1/'],
    ['GET', '/pets/1/owners'],
    ['GET', '/Pets'],
    ['GET', '//pets'],
    ['GET', '/owners'],
  ])('reads %s %s as no documented operation', (method, path) => {
    expect(view(method, path).operation).toBeUndefined();
  });

  it.each([
    ['GET', '/pets/', 'listPets'],
    ['GET', '//pets', 'listPets'],
    ['GET', '/%70ets', 'listPets'],
    ['GET', '/Pets', 'listPets'],
    ['POST', '/pets/', 'createPet'],
    ['GET', '/pets/1/', 'getPet'],
  ])('reads %s %s as a spelling of %s', (method, path, operation) => {
    expect(view(method, path).spells).toBe(operation);
  });

  it('says no spelling of a documented path, nor of a method or path no operation has', () => {
    expect(view('GET', '/pets').spells).toBeUndefined();
    expect(view('PUT', '/pets/').spells).toBeUndefined();
    expect(view('GET', '/pets/1/owners').spells).toBeUndefined();
  });
});

describe('viewRequest: which credential a request carries', () => {
  it('reads `Bearer $PETS_API_KEY` as the run\'s key, with the exact scheme', () => {
    expect(view('GET', '/pets', { Authorization: 'Bearer $PETS_API_KEY' }).credential).toEqual({ kind: 'key', key: 'key', exactScheme: true });
  });

  it('reads `Bearer $PETS_API_KEY_2` as the second key', () => {
    expect(view('GET', '/pets', { Authorization: 'Bearer $PETS_API_KEY_2' }).credential).toEqual({ kind: 'key', key: 'key2', exactScheme: true });
  });

  it('reads a lower-case `bearer` scheme as the key, the scheme not exact (RFC 9110: the scheme is case-insensitive)', () => {
    expect(view('GET', '/pets', { Authorization: 'bearer $PETS_API_KEY' }).credential).toEqual({ kind: 'key', key: 'key', exactScheme: false });
    expect(view('GET', '/pets', { Authorization: 'BEARER $PETS_API_KEY' }).credential).toEqual({ kind: 'key', key: 'key', exactScheme: false });
  });

  it('reads the Authorization header whatever the case of its name', () => {
    expect(view('GET', '/pets', { AUTHORIZATION: 'Bearer $PETS_API_KEY' }).credential.kind).toBe('key');
    expect(view('GET', '/pets', { authorization: 'Bearer $PETS_API_KEY' }).credential.kind).toBe('key');
  });

  it('reads a request without Authorization as carrying no credential', () => {
    expect(view('GET', '/pets').credential).toEqual({ kind: 'none' });
  });

  it.each([
    ['a stranger\'s key', 'Bearer someone-elses-key'],
    ['another scheme carrying the key', 'Token $PETS_API_KEY'],
    ['Basic', 'Basic JFBFVFNfQVBJX0tFWQ=='],
    ['the scheme alone', 'Bearer'],
    ['an empty token', 'Bearer '],
    ['the key with a suffix', 'Bearer $PETS_API_KEY_3'],
    ['the key with something after it', 'Bearer $PETS_API_KEY x'],
    ['the bare key', '$PETS_API_KEY'],
  ])('reads %s as a wrong credential', (_, authorization) => {
    expect(view('GET', '/pets', { Authorization: authorization }).credential).toEqual({ kind: 'wrong' });
  });

  it('reads `Bearer` followed by two spaces and the key as the key (RFC 6750, 2.1: 1*SP)', () => {
    expect(view('GET', '/pets', { Authorization: 'Bearer  $PETS_API_KEY' }).credential).toMatchObject({ kind: 'key', key: 'key' });
  });
});

describe('viewRequest: the rest of the request', () => {
  it('lower-cases header names and keeps the body', () => {
    const v = view('POST', '/pets', { 'Content-Type': 'application/json' }, '{"name":"Rex","categoryId":1}');
    expect(v.headers['content-type']).toBe('application/json');
    expect(v.body).toBe('{"name":"Rex","categoryId":1}');
  });

  it('leaves the body out when none was sent', () => {
    expect('body' in view('GET', '/pets')).toBe(false);
  });

  it('reads OPTIONS with Origin and Access-Control-Request-Method as a CORS preflight', () => {
    expect(view('OPTIONS', '/pets', { Origin: 'https://app.test', 'Access-Control-Request-Method': 'POST' }).preflight).toBe(true);
  });

  it('reads an OPTIONS without Access-Control-Request-Method, or a GET with both headers, as no preflight', () => {
    expect(view('OPTIONS', '/pets', { Origin: 'https://app.test' }).preflight).toBe(false);
    expect(view('OPTIONS', '/pets').preflight).toBe(false);
    expect(view('GET', '/pets', { Origin: 'https://app.test', 'Access-Control-Request-Method': 'POST' }).preflight).toBe(false);
  });
});

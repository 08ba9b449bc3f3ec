import { copyFile, mkdtemp, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSpecPath } from '../../spec/loadSpec.ts';
import { generatePets, serializePets } from '../../fixtures/generatePets.ts';
import { STATE_FORMAT } from './stateFile.ts';
import { startMockServer, type MockServer } from './startMockServer.ts';

/**
 * Saves a watched file as editors do, a new file renamed over it: the watcher never reads it half
 * written (a write in place truncates first, and the rest may come after the watcher's 150 ms).
 */
async function save(path: string, text: string): Promise<void> {
  await writeFile(`${path}.saving`, text);
  await rename(`${path}.saving`, path);
}

const running: MockServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function start(options: Partial<Parameters<typeof startMockServer>[0]> = {}) {
  const server = await startMockServer({ port: 0, host: '127.0.0.1', pets: { count: 10 }, logLevel: false, ...options });
  running.push(server);
  return server;
}

const auth = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' };
const create = (server: MockServer, body: object) => fetch(`${server.url}/pets`, { method: 'POST', headers: auth, body: JSON.stringify(body) }).then((r) => r.json());
const get = (server: MockServer, path: string) => fetch(`${server.url}${path}`, { headers: auth });

/** A promise for the next call of a callback option, and the callback to pass. */
function nextCall<T = void>(): { callback: (value: T) => void; next: () => Promise<T> } {
  let waiting: ((value: T) => void) | undefined;
  const queue: T[] = [];
  return {
    callback: (value) => (waiting ? (waiting(value), (waiting = undefined)) : queue.push(value)),
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise<T>((resolve) => (waiting = resolve))),
  };
}

describe('--state-file', () => {
  it('keeps created pets across a restart, with ids continuing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'state-'));
    const file = join(dir, 'state.json');
    const first = await start({ stateFile: file });
    const rex = await create(first, { name: 'Rex', categoryId: 1 });
    await first.close();
    running.splice(running.indexOf(first), 1);

    const second = await start({ stateFile: file });
    expect(await (await get(second, `/pets/${rex.id}`)).json()).toEqual(rex);
    expect((await create(second, { name: 'Milo', categoryId: 2 })).id).toBe(rex.id + 1);
  });

  it('keeps a categoryId past 2^53 - 1 exactly in the file and across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'state-'));
    const file = join(dir, 'state.json');
    const first = await start({ stateFile: file });
    const sent = await fetch(`${first.url}/pets`, { method: 'POST', headers: auth, body: '{"name":"Big","categoryId":9223372036854775807}' });
    const pet = await sent.text();
    expect(pet).toContain('"categoryId":9223372036854775807');
    const id = (JSON.parse(pet) as { id: number }).id;
    await first.close();
    running.splice(running.indexOf(first), 1);
    expect(await readFile(file, 'utf8')).toContain('"categoryId": 9223372036854775807');

    const second = await start({ stateFile: file });
    expect(await (await get(second, `/pets/${id}`)).text()).toBe(pet);
  });

  it('writes a change to the file within a second, without leaving temporary files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'state-'));
    const file = join(dir, 'state.json');
    const writes = nextCall();
    const server = await start({ stateFile: file, onStateSaved: writes.callback });
    await writes.next();
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved).toMatchObject({ format: STATE_FORMAT, nextId: 11 });
    expect(saved.pets).toHaveLength(10);
    const pet = await create(server, { name: 'Rex', categoryId: 1 });
    await writes.next();
    expect(JSON.parse(await readFile(file, 'utf8')).pets).toContainEqual(pet);
    expect(await readdir(dir)).toEqual(['state.json', 'state.json.ids']);
  });

  it('saves a replacement through the control API too', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'state-')), 'state.json');
    const server = await start({ stateFile: file });
    await fetch(`${server.url.replace('/v1', '')}/__mock/pets`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ id: 3, name: 'Only', categoryId: 1 }]) });
    await server.close();
    running.splice(running.indexOf(server), 1);
    expect(JSON.parse(await readFile(file, 'utf8')).pets).toEqual([{ id: 3, name: 'Only', categoryId: 1 }]);
  });

  it('restarts from the state it saved after handing out the last id, and answers creates 409 IDS_EXHAUSTED', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'state-')), 'state.json');
    const first = await start({ stateFile: file });
    const control = `${first.url.replace('/v1', '')}/__mock/pets`;
    await fetch(control, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ id: 9007199254740990, name: 'High', categoryId: 1 }]) });
    expect((await create(first, { name: 'Last', categoryId: 1 })).id).toBe(9007199254740991);
    await first.close();
    running.splice(running.indexOf(first), 1);

    const second = await start({ stateFile: file });
    expect((await get(second, '/pets/9007199254740991')).status).toBe(200);
    const refused = await fetch(`${second.url}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'More', categoryId: 1 }) });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'IDS_EXHAUSTED', status: 409 });
  });

  it.each([
    ['not JSON', '{"pets": [', /not valid JSON/],
    ['another format', '{"pets": []}', /not a pets-mock-state\/1 file/],
    ['a bad pet', JSON.stringify({ format: STATE_FORMAT, nextId: 5, pets: [{ id: 1, name: 'A' }] }), /pets\[0\]\.categoryId is required/],
    ['a nextId below the ids', JSON.stringify({ format: STATE_FORMAT, nextId: 1, pets: [{ id: 4, name: 'A', categoryId: 1 }] }), /nextId 1/],
  ])('refuses to start on a state file with %s, naming the file and leaving it alone', async (_, content, message) => {
    const file = join(await mkdtemp(join(tmpdir(), 'state-')), 'state.json');
    await writeFile(file, content);
    await expect(start({ stateFile: file })).rejects.toThrow(message);
    await expect(start({ stateFile: file })).rejects.toThrow(file);
    expect(await readFile(file, 'utf8')).toBe(content);
  });
});

describe('--watch', () => {
  async function watched() {
    const dir = await mkdtemp(join(tmpdir(), 'watch-'));
    const specPath = join(dir, 'openapi.yaml');
    const petsFile = join(dir, 'pets.json');
    await copyFile(defaultSpecPath, specPath);
    const pets = generatePets({ count: 5 }).map((p) => ({ ...p, categoryId: 1 }));
    await writeFile(petsFile, serializePets(pets));
    const reloads = nextCall<boolean>();
    const server = await start({ specPath, pets: { file: petsFile }, watch: true, onReloaded: reloads.callback });
    return { server, specPath, petsFile, pets, reloaded: reloads.next };
  }

  it('reloads an edited fixtures file and keeps the pets created meanwhile', async () => {
    const { server, petsFile, pets, reloaded } = await watched();
    const created = await create(server, { name: 'Created', categoryId: 1 });
    await save(petsFile, serializePets([...pets, { id: 50, name: 'Added', categoryId: 1, status: 'sold' }]));
    expect(await reloaded()).toBe(true);
    expect((await get(server, '/pets/50')).status).toBe(200);
    expect(await (await get(server, `/pets/${created.id}`)).json()).toEqual(created);
  });

  it('reloads an edited spec', async () => {
    const { server, specPath, reloaded } = await watched();
    const body = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'reserved' });
    expect((await fetch(`${server.url}/pets`, { method: 'POST', headers: auth, body })).status).toBe(400);
    const spec = await readFile(specPath, 'utf8');
    await save(specPath, spec.replace('enum: [available, pending, sold]', 'enum: [available, pending, sold, reserved]'));
    expect(await reloaded()).toBe(true);
    expect((await fetch(`${server.url}/pets`, { method: 'POST', headers: auth, body })).status).toBe(201);
  });

  it('drops created pets the new spec no longer accepts', async () => {
    const { server, specPath } = await watched();
    const kept = await create(server, { name: 'Small', categoryId: 1 });
    const dropped = await create(server, { name: 'Big', categoryId: 9 });
    const spec = await readFile(specPath, 'utf8');
    await save(specPath, spec.replace(/(categoryId:\n\s+type: integer\n\s+format: int64\n)(\s+)description: Identifier of the category\./, '$1$2maximum: 5\n$2description: Identifier of the category.'));
    expect(await server.reload()).toBe(true);
    expect((await get(server, `/pets/${kept.id}`)).status).toBe(200);
    expect((await get(server, `/pets/${dropped.id}`)).status).toBe(404);
  });

  it('keeps the old version serving when an edit is broken', async () => {
    const { server, specPath, petsFile } = await watched();
    const created = await create(server, { name: 'Survivor', categoryId: 1 });
    await save(specPath, 'openapi: 3.0.3\ninfo: [broken');
    expect(await server.reload()).toBe(false);
    await save(petsFile, '[{"id": 1}]');
    expect(await server.reload()).toBe(false);
    expect(await (await get(server, `/pets/${created.id}`)).json()).toEqual(created);
    expect((await get(server, '/pets')).status).toBe(200);
  });

  it('keeps the old version serving when an edited spec parses but is not a valid OpenAPI document', async () => {
    const { server, specPath } = await watched();
    await save(specPath, `${await readFile(specPath, 'utf8')}\nnotAnOpenApiField: true\n`);
    expect(await server.reload()).toBe(false);
    expect((await get(server, '/pets')).status).toBe(200);
  });

  it('validates a spec again when a file its $refs name changes, though its own text did not', async () => {
    const { server, specPath, petsFile, pets } = await watched();
    const orderPath = join(specPath, '..', 'order.yaml');
    await save(orderPath, 'description: A store order record.\n');
    const spec = await readFile(specPath, 'utf8');
    const items = 'items:\n                  description: A store order record. Its fields are not shown in the contract.';
    expect(spec).toContain(items);
    await save(specPath, spec.replace(items, "items:\n                  $ref: './order.yaml'"));
    expect(await server.reload()).toBe(true);
    // A reload for the fixtures alone: the spec, found valid, is not validated again.
    await save(petsFile, serializePets(pets.slice(0, 3)));
    expect(await server.reload()).toBe(true);
    await save(orderPath, 'type: 5\nnotAKeyword: true\n');
    expect(await server.reload()).toBe(false);
    expect((await get(server, '/store/orders')).status).toBe(200);
  });

  it('keeps Prism loaded across a reload that leaves the spec unchanged, and starts a new one when it changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'watch-'));
    const specPath = join(dir, 'openapi.yaml');
    await copyFile(defaultSpecPath, specPath);
    let logs = '';
    const server = await start({ specPath, logLevel: 'info', logStream: { write: (line: string) => (logs += line) } });
    expect((await get(server, '/store/orders')).status).toBe(200);
    expect(await server.reload()).toBe(true);
    expect(logs).toMatch(/Prism kept/);
    const spec = await readFile(specPath, 'utf8');
    await save(specPath, spec.replace('summary: List store orders', 'summary: List the store orders'));
    logs = '';
    expect(await server.reload()).toBe(true);
    expect(logs).toMatch(/Reloaded/);
    expect(logs).not.toMatch(/Prism kept/);
    expect((await get(server, '/store/orders')).status).toBe(200);
  });

  it('keeps counters and keys across a reload', async () => {
    const { server, petsFile, pets } = await watched();
    // On a frozen clock, so that no minute ends between the two requests.
    const frozen = await fetch(`${server.url.replace('/v1', '')}/__mock/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"freeze": true}' });
    expect(await frozen.json()).toMatchObject({ frozen: true });
    const first = await fetch(`${server.url}/pets`, { headers: { authorization: 'Bearer demo-free' } });
    await save(petsFile, serializePets(pets.slice(0, 2)));
    expect(await server.reload()).toBe(true);
    const second = await fetch(`${server.url}/pets`, { headers: { authorization: 'Bearer demo-free' } });
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
  });
});

describe('requests Node cannot parse', () => {
  const raw = async (server: MockServer, text: string) => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(text);
    let answer = '';
    for await (const chunk of socket) answer += chunk;
    return answer;
  };

  it('answers a malformed request line with a 400 Error body', async () => {
    const server = await start();
    const answer = await raw(server, 'GARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });

  it('answers headers over the limit with a 431 Error body', async () => {
    const server = await start();
    const answer = await raw(server, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'HEADERS_TOO_LARGE', status: 431 });
  });
});

// The framing probe against a deployment that speaks HTTP/1.x by hand, over real sockets on
// 127.0.0.1: its plans sent through the paced client, its answers judged by the model.
import { afterEach, describe, expect, it } from 'vitest';
import type { KnownPet } from '../check.ts';
import { createServer, type AddressInfo } from 'node:net';
import { PacedClient } from '../http/pacedClient.ts';
import { defaultRawMaxBytes } from '../http/rawHttp.ts';
import { httpTransport, type Transport } from '../http/transport.ts';
import { integerText } from '../../common/json/losslessJson.ts';
import { runModel } from '../model/runModel.ts';
import { modelOptions } from '../model/testing/modelExchanges.ts';
import type { Deployment } from '../testing/deployment.ts';
import { startRawDeployment, type WireFault } from '../testing/rawDeployment.ts';
import { framingPlans } from './httpFraming.ts';
import { runConformance } from '../index.ts';
import { summarizeExchange } from '../runReport.ts';
import { testSpec } from '../../mock/testing.ts';

let deployment: Deployment | undefined;
let transport: Transport | undefined;
afterEach(async () => {
  await transport?.close?.();
  await deployment?.close();
  deployment = undefined;
  transport = undefined;
});

/** Runs the probe's plans against the deployment with `fault`; the framing judgements, and the client. */
async function probe(fault: WireFault = {}, readOnly = false) {
  deployment = await startRawDeployment(fault);
  transport = httpTransport();
  const client = new PacedClient({ baseUrl: deployment.baseUrl, apiKey: 'demo-pro', transport, timeoutMs: 2000, userAgent: 'pets-conformance/test' });
  const listed = await client.send('preflight', { method: 'GET', path: '/pets?limit=5', auth: 'key', operationId: 'listPets', intent: 'valid' });
  const pets: KnownPet[] = (listed.response.json as { id: number; categoryId: number }[]).map((p) => ({ id: p.id, idText: integerText(p.id)!, categoryId: p.categoryId }));
  for (const plan of framingPlans({ options: { readOnly, depth: 'quick', probeRateLimit: false, probeMaxRequests: 0, seed: 1 }, knownPets: () => pets, runMark: 'test' })) await client.sendWire('http-framing', plan);
  const judgements = runModel(client.exchanges, modelOptions(), client.unanswered).judgements.filter((j) => j.rule.startsWith('framing.'));
  return { client, judgements, failures: judgements.filter((j) => j.outcome === 'failure') };
}
const rulesOf = (judgements: { rule: string }[]) => [...new Set(judgements.map((j) => j.rule))].sort();

describe('http-framing', () => {
  it('holds every framing rule of a deployment that frames HTTP/1.x correctly, sending eight requests, each an exchange the model judges', async () => {
    const { client, judgements, failures } = await probe();
    expect(failures.map((f) => f.message)).toEqual([]);
    expect(judgements.filter((j) => j.outcome === 'warning')).toEqual([]);
    expect(rulesOf(judgements)).toEqual([
      'framing.body-read-whole',
      'framing.close-honoured',
      'framing.connection-reusable',
      'framing.head-no-body',
      'framing.length-exact',
      'framing.message-syntax',
      'framing.no-chunked-to-1.0',
      'framing.one-length',
      'framing.pipelined-in-order',
    ]);
    const wire = client.exchanges.filter((e) => e.wire);
    expect(wire.map((e) => `${e.request.method} ${e.path} ${e.response.status} HTTP/${e.wire!.connection.requests[e.wire!.index]!.version}${e.wire!.connection.pipelined ? ' pipelined' : ''}`)).toEqual([
      'HEAD /pets?limit=1 200 HTTP/1.1',
      'GET /pets?limit=1 200 HTTP/1.1',
      'POST /pets 201 HTTP/1.1',
      'POST /pets 201 HTTP/1.1',
      expect.stringMatching(/^GET \/pets\/\d+ 200 HTTP\/1.1 pipelined$/),
      'GET /pets?limit=1 200 HTTP/1.1 pipelined',
      expect.stringMatching(/^GET \/pets\/\d+ 200 HTTP\/1.1 pipelined$/),
      'GET /pets?limit=1 200 HTTP/1.0',
    ]);
    // The split body's name came whole, its UTF-8 character cut in two on the wire.
    expect(wire[3]!.response.json).toMatchObject({ name: 'Framing test Zoé split' });
    const reported = JSON.stringify(wire.map((e) => summarizeExchange(e)));
    expect(reported).not.toContain('demo-pro');
    expect(reported).toContain('"authorization":"Bearer $PETS_API_KEY"');
    expect(summarizeExchange(wire[7]!).wire).toMatchObject({ connection: 3, position: 1, version: '1.0', pipelined: false, framing: 'content-length', head: expect.stringMatching(/^HTTP\/1.1 200 OK\r\n/) });
  });

  it('is one check of a whole run that exits 0 against a deployment that frames HTTP/1.x correctly', async () => {
    deployment = await startRawDeployment();
    const result = await runConformance({ baseUrl: deployment.baseUrl, apiKey: 'demo-pro', spec: await testSpec(), timeout: 3000 });
    expect(result.report.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.report.checks.find((c) => c.id === 'http-framing')!.status).toBe('passed');
    expect(result.report.coverage!.filter((r) => r.check === 'http-framing' && r.status === 'judged').map((r) => r.rule)).toContain('framing.pipelined-in-order');
  }, 120_000);

  it('fails a Content-Length counted in UTF-16 units with the bytes it leaves behind', async () => {
    const { failures } = await probe({ contentLength: (text) => text.length });
    expect(rulesOf(failures)).toContain('framing.length-exact');
    expect(failures.find((f) => f.rule === 'framing.length-exact')!.message).toMatch(/POST \/pets \(201, HTTP\/1.1, answer 4 on raw connection 1\): its Content-Length \(\d+\) ends the body before 1 byte that starts no answer \("}"\): the length does not count the whole body/);
  });

  it('fails a body after the head of an answer to HEAD, which the next answer then starts with', async () => {
    const { failures } = await probe({ bodyOnHead: true });
    expect(rulesOf(failures)).toEqual(['framing.head-no-body']);
    expect(failures[0]!.message).toMatch(/HEAD \/pets\?limit=1 .* its head is followed by \d+ bytes that start no answer \("\[\{.*a body, which an answer to HEAD does not have/);
  });

  it('fails chunked sent to an HTTP/1.0 request', async () => {
    const { failures } = await probe({ chunkedToAll: true });
    expect(rulesOf(failures)).toEqual(['framing.no-chunked-to-1.0']);
    expect(failures[0]!.message).toMatch(/HTTP\/1.0.*answers an HTTP\/1.0 request with Transfer-Encoding: chunked/);
  });

  it('fails a Connection: close not made, after waiting the timeout for it', async () => {
    const { failures } = await probe({ ignoreClose: true });
    expect(rulesOf(failures)).toEqual(['framing.close-honoured']);
    expect(failures[0]!.message).toMatch(/it was sent with Connection: close, yet the connection was still open 2000 ms after the answer/);
  });

  it('fails pipelined requests left unanswered on an open connection', async () => {
    const { failures, client } = await probe({ firstOfEachRead: true });
    expect(rulesOf(failures)).toEqual(['framing.pipelined-in-order']);
    expect(failures[0]!.message).toMatch(/the 2 requests pipelined after it \(\/v1\/pets\?limit=1, \/v1\/pets\/\d+\) got none within 2000 ms/);
    expect(client.unanswered.map((u) => u.error)).toEqual([expect.stringContaining('no answer within 2000 ms, the connection open'), expect.stringContaining('no answer within 2000 ms, the connection open')]);
  });

  it('leaves pipelining and reuse not reached, never failed, on a deployment that closes after every answer, sending the rest on new connections', async () => {
    const { failures, judgements, client } = await probe({ closeEach: true });
    expect(failures).toEqual([]);
    expect(rulesOf(judgements)).not.toContain('framing.pipelined-in-order');
    expect(rulesOf(judgements)).not.toContain('framing.connection-reusable');
    expect(client.exchanges.filter((e) => e.wire).map((e) => e.wire!.connection.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(client.unanswered.map((u) => u.error)).toEqual([expect.stringContaining('closed the connection without answering it'), expect.stringContaining('closed the connection without answering it')]);
  });

  it('judges no answer larger than the bytes it reads on a connection (a name may be that long): the rest of the suite judges sizes', async () => {
    const big = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${2 * defaultRawMaxBytes}\r\n\r\n${'['.padEnd(2 * defaultRawMaxBytes, ' ')}`));
    });
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(big.address() as AddressInfo).port}/v1`;
      const client = new PacedClient({ baseUrl, apiKey: 'demo-pro', transport: httpTransport(), timeoutMs: 2000, userAgent: 'pets-conformance/test' });
      const outcome = await client.sendWire('http-framing', { pipelined: false, requests: [{ method: 'GET', path: '/pets?limit=1', auth: 'key', operationId: 'listPets', intent: 'valid', version: '1.1' }] });
      expect(outcome.exchanges).toEqual([]);
      expect(client.unanswered.map((u) => u.error)).toEqual([expect.stringMatching(/passed the 1048576 bytes the framing probe reads on a connection: not judged here/)]);
    } finally {
      await new Promise((resolve) => big.close(resolve));
    }
  });

  it('sends only GETs under --read-only', async () => {
    const { client, failures } = await probe({}, true);
    expect(failures).toEqual([]);
    expect(new Set(client.exchanges.filter((e) => e.wire).map((e) => e.request.method))).toEqual(new Set(['GET']));
  });
});

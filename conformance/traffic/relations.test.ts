// The relations every run sends, against the mock and against deployments whose answer depends on
// something the contract does not let it depend on: each is caught by the relation it varies, and
// a failing relation is shrunk to the form that shows it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { json, withJson, type Req, type Transform } from '../testing/deployment.ts';
import { failedChecks, runOnFreshDeployment } from '../testing/runSuite.ts';
import { clientProfiles } from './clientProfiles.ts';
import { relationPass, type Form, type RelationCommand } from './relations.ts';

const plainHeaders = new Set(['user-agent', 'x-conformance-run-id', 'accept', 'authorization', 'content-type', 'host', 'content-length', 'transfer-encoding', 'connection']);
/** The request carries a header the suite's plain requests never send: a client's or a gateway's. */
const hasForeignHeader = (req: Req) => Object.keys(req.headers).some((name) => !plainHeaders.has(name.toLowerCase())) || !/^pets-conformance\//.test(req.headers['user-agent'] ?? '');
const isGetPet = (req: Req) => req.method === 'GET' && /^\/v1\/pets\/\d+$/.test(req.url);

const coverageOf = async (transform?: Transform) => {
  const result = await runOnFreshDeployment(transform, { checks: ['equivalent-requests', 'rate-limit-accounting', 'data-integrity'] });
  const rows = (result.report.coverage ?? []).filter((r) => r.rule.startsWith('relation/'));
  return { result, rows };
};

describe('relationPass: what every run sends', () => {
  it('draws each dimension, seeded: the same seed the same forms', () => {
    const draw = (seed: number) => relationPass({ readOnly: false, otherAddress: true }).map((a) => fc.sample(a, { seed, numRuns: 1 })[0]!);
    const forms = draw(5).flatMap((c) => ((c as RelationCommand).kind === 'relation' ? ((c as { forms: Form[] }).forms) : []));
    const varied = new Set([...forms.flatMap((f) => f.dimensions), ...draw(5).map((c) => c.kind)]);
    for (const d of ['client-headers', 'json-text', 'media-type', 'connection', 'source-address']) expect(varied, d).toContain(d);
    expect(varied).toContain('order');
    expect(varied).toContain('burst');
    expect(draw(5)).toEqual(draw(5));
    expect(draw(6)).not.toEqual(draw(5));
  });

  it("sends a list as every client sends it, each with all its headers, whatever the seed", () => {
    for (const seed of [1, 2, 3]) {
      const first = fc.sample(relationPass({ readOnly: seed === 2, otherAddress: false })[0]!, { seed, numRuns: 1 })[0] as RelationCommand & { kind: 'relation' };
      expect(first.of).toBe('list');
      expect(first.forms.map((f) => [f.name, f.headers])).toEqual(clientProfiles.map((p) => [p.name, p.headers]));
      expect(first.limit).toBeGreaterThanOrEqual(20);
    }
  });

  it('leaves out creates under --read-only, and the other address when there is none', () => {
    const kinds = relationPass({ readOnly: true, otherAddress: false }).map((a) => fc.sample(a, { seed: 1, numRuns: 1 })[0]!);
    expect(kinds.map((c) => ('of' in c ? c.of : c.kind))).toEqual(['list', 'get', 'order']);
    expect(kinds.flatMap((c) => ('forms' in c ? c.forms : [])).some((f) => f.otherAddress)).toBe(false);
  });
});

describe('the relations against a deployment', () => {
  it('fails a deployment that compares the Content-Type as an exact string (RFC 9110, 8.3.1)', async () => {
    const { result, rows } = await coverageOf(async (req, forward) => {
      const res = await forward(req);
      return req.method === 'POST' && res.status === 201 && req.headers['content-type'] !== 'application/json' ? { status: 415, headers: { ...res.headers }, body: JSON.stringify({ code: 'UNSUPPORTED', message: 'JSON only', status: 415 }) } : res;
    });
    expect(failedChecks(result)).toContain('equivalent-requests');
    expect(rows.find((r) => r.rule === 'relation/media-type')?.status).toBe('failed');
  });

  it('fails a deployment whose pet depends on a client\'s header, and shrinks the form to few of its headers', async () => {
    const { result, rows } = await coverageOf(async (req, forward) => {
      const res = await forward(req);
      return isGetPet(req) && res.status === 200 && hasForeignHeader(req) ? withJson(res, { ...(json(res) as object), name: 'Localised name' }) : res;
    });
    expect(failedChecks(result)).toContain('equivalent-requests');
    expect(rows.find((r) => r.rule === 'relation/client-headers' && r.operation === 'getPet')?.status).toBe('failed');
    const shrunk = (result.report.reproductions ?? []).find((r) => r.rules.includes('equivalent.same-data') && r.commands.some((c) => (c as { of?: string }).of === 'get'));
    expect(shrunk, JSON.stringify((result.report.reproductions ?? []).map((r) => r.rules))).toBeDefined();
    expect(shrunk!.requests.shrunk).toBeLessThanOrEqual(shrunk!.requests.original);
  });

  it("fails a deployment whose list depends on a browser's Accept-Language, and shrinks the relation to that client and few of its headers", async () => {
    const french: Record<string, string> = { available: 'disponible', pending: 'en attente', sold: 'vendu' };
    const { result, rows } = await coverageOf(async (req, forward) => {
      const res = await forward(req);
      if (!(req.method === 'GET' && req.url.startsWith('/v1/pets?') && res.status === 200 && /^fr\b/i.test(req.headers['accept-language'] ?? ''))) return res;
      return withJson(res, (json(res) as { status: string }[]).map((pet) => ({ ...pet, status: french[pet.status] ?? pet.status })));
    });
    expect(failedChecks(result)).toContain('equivalent-requests');
    expect(rows.find((r) => r.rule === 'relation/client-headers' && r.operation === 'listPets')?.status).toBe('failed');
    const shrunk = (result.report.reproductions ?? []).find((r) => r.commands.some((c) => (c as { of?: string }).of === 'list'));
    const forms = (shrunk?.commands[0] as { forms: Form[] } | undefined)?.forms ?? [];
    expect(forms.map((f) => f.name), JSON.stringify(result.report.reproductions?.map((r) => r.rules))).toEqual(['firefox-fetch']);
    expect(forms[0]!.headers).toContainEqual(['Accept-Language', 'fr-FR,fr;q=0.8,en-US;q=0.5,en;q=0.3']);
    expect(forms[0]!.headers!.length).toBeLessThan(clientProfiles.find((p) => p.name === 'firefox-fetch')!.headers.length);
  });

  it('fails a deployment that keeps a key\'s window per client address', async () => {
    const { result, rows } = await coverageOf(async (req, forward) => forward(req.remoteAddress !== undefined && req.remoteAddress !== '127.0.0.1' && req.headers.authorization === 'Bearer demo-pro' ? { ...req, headers: { ...req.headers, authorization: 'Bearer demo-business' } } : req));
    expect(failedChecks(result)).toEqual(expect.arrayContaining(['equivalent-requests', 'rate-limit-accounting']));
    expect(rows.find((r) => r.rule === 'relation/source-address')?.status).toBe('failed');
  });
});

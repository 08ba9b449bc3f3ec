import { describe, expect, it } from 'vitest';
import { createBodyOf, isCreateReq } from '../testing/catalogueHelpers.ts';
import type { Transform } from '../testing/deployment.ts';
import { failedCases, runOnFreshDeployment } from '../testing/runSuite.ts';

/** A service that inserts the row before it validates the body: a create it refuses with 400 is stored all the same, as far as its columns take it. */
const insertsBeforeValidating: Transform = async (req, forward) => {
  const res = await forward(req);
  const body = isCreateReq(req) && res.status === 400 ? createBodyOf(req) : undefined;
  if (body !== undefined && typeof body.name === 'string') {
    await forward({ ...req, body: JSON.stringify({ name: body.name, categoryId: 1 }) });
  }
  return res;
};

describe('the create-pet check\'s refused bodies', () => {
  it('fail a deployment that stores a create it refuses, once a list shows the pet of a name only that body sent', async () => {
    const result = await runOnFreshDeployment(insertsBeforeValidating);
    expect(result.exitCode).toBe(1);
    const integrity = failedCases(result, 'data-integrity');
    expect(integrity.length).toBeGreaterThan(0);
    const finding = result.report.checks.find((c) => c.id === 'data-integrity')!.operations.flatMap((o) => o.findings).find((f) => f.level === 'failure' && /a refused create added a pet/.test(f.message ?? ''));
    expect(finding?.message).toMatch(/named "pets-conformance refused [^"]+", a name only the create #\d+ sent, which was refused/);
  });

  it('send each body to be refused under a name no other request sends, but those that test the name', async () => {
    const sent: { body: string; status: number }[] = [];
    const recording: Transform = async (req, forward) => {
      const res = await forward(req);
      if (isCreateReq(req)) sent.push({ body: req.body, status: res.status });
      return res;
    };
    expect((await runOnFreshDeployment(recording)).exitCode).toBe(0);
    const marked = sent.filter((s) => s.body.includes('"name":"pets-conformance refused '));
    expect(marked.length).toBeGreaterThan(10);
    expect(marked.every((s) => s.status === 400)).toBe(true);
    // Each marked name is sent once: no other request, refused or created, carries it.
    const names = marked.map((s) => /"name":("pets-conformance refused [^"]*")/.exec(s.body)![1]);
    expect(new Set(names).size).toBe(names.length);
    expect(sent.filter((s) => s.status === 201).some((s) => s.body.includes('pets-conformance refused'))).toBe(false);
  });
});

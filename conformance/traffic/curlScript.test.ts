import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { parseBody } from '../http/exchange.ts';
import { responseOf } from '../http/transport.ts';
import { isGetPet, json, path, startDeployment, withJson, type Transform } from '../testing/deployment.ts';
import { runOnFreshDeployment } from '../testing/runSuite.ts';
import { creatorsOf, curlScript } from './curlScript.ts';

const run = promisify(execFile);

let seq = 0;
function exchange(method: string, path: string, status: number, body = '', requestBody?: string, headers: Record<string, string> = {}): Exchange {
  return {
    seq: ++seq,
    checkId: 'generated-traffic',
    operationId: 'x',
    intent: 'valid',
    path,
    bucket: 'key',
    sentAt: 0,
    request: { method, url: `http://api.test/v1${path}`, headers: { authorization: 'Bearer $PETS_API_KEY', ...headers }, ...(requestBody !== undefined ? { body: requestBody } : {}) },
    response: { ...responseOf(status, { 'content-type': 'application/json' }, body), ...parseBody(body), durationMs: 1 },
    retries: 0,
  };
}

describe('curlScript', () => {
  it('reads the id a create of the script got from its 201, and sends it where a later path names that pet, never in a query', () => {
    const create = exchange('POST', '/pets', 201, '{"id":5,"name":"Rex","categoryId":1}', '{"name":"Rex","categoryId":1}');
    const script = curlScript([create, exchange('GET', '/pets/5', 200), exchange('GET', '/pets/5.0', 200), exchange('GET', '/pets?limit=5', 200), exchange('GET', '/pets/55', 404)]);
    expect(script).toContain(`base="\${PETS_BASE_URL:-http://api.test/v1}"`);
    expect(script).toContain(`| tee "$answer"\nid_${create.seq}="$(created_id)"`);
    expect(script).toContain(`"\${base}/pets/\${id_${create.seq}}"`);
    expect(script).toContain(`"\${base}/pets/\${id_${create.seq}}.0"`);
    expect(script).toContain('"${base}/pets?limit=5"');
    expect(script).toContain('"${base}/pets/55"');
    expect(script).toContain(`echo '--- #${create.seq + 1} GET /pets/{id of #${create.seq}} (the run was answered 200)'`);
    expect(script).toMatch(/^curl -sS -i -w '\\n--- answered %\{http_code\}\\n' "\$\{base\}\/pets\?limit=5" -H "authorization: Bearer \$PETS_API_KEY"$/m);
  });

  it('captures nothing when no later request names a created pet, sends HEAD as curl does, and a long body through stdin', () => {
    const long = `{"name":"Huge body","categoryId":1}${' '.repeat(200_000)}`;
    const script = curlScript([exchange('POST', '/pets', 201, '{"id":5,"name":"Rex","categoryId":1}', long), exchange('HEAD', '/pets', 200)]);
    expect(script).not.toContain('created_id');
    expect(script).toMatch(/curl -sS -i -w '[^']*' -I "\$\{base\}\/pets"/);
    expect(script).toContain(`printf '%s' "$(cat <<'PETS_BODY'\n${long}\nPETS_BODY\n)" | curl -sS -i`);
    expect(script).toMatch(/--data-binary @-$/m);
  });

  it('finds the earlier creates of the pets a sequence reads by id', () => {
    const made = exchange('POST', '/pets', 201, '{"id":90,"name":"Rex","categoryId":1}', '{}');
    const other = exchange('POST', '/pets', 201, '{"id":91,"name":"Rex","categoryId":1}', '{}');
    const sequence = [exchange('GET', '/pets/90', 200), exchange('GET', '/pets?limit=91', 200)];
    expect(creatorsOf(sequence, [made, other, ...sequence])).toEqual([made]);
  });
});

/** Reads back every pet this run created (ids past the 60 fixtures) with its name changed. */
const renamesCreated: Transform = async (req, forward) => {
  const res = await forward(req);
  const id = isGetPet(req) ? Number(/\/pets\/(\d+)$/.exec(path(req))?.[1]) : Number.NaN;
  return id > 60 && res.status === 200 ? withJson(res, { ...(json(res) as object), name: 'Renamed' }) : res;
};

describe('a shrunk sequence\'s curl script, run with bash against a fresh deployment', () => {
  it('sends every request, its reads naming the pets its own creates got, and gets the statuses the run got', { timeout: 120_000 }, async () => {
    const result = await runOnFreshDeployment(renamesCreated);
    expect(result.exitCode).toBe(1);
    const reproduction = result.report.reproductions!.find((r) => r.curl.includes('{id of #'));
    expect(reproduction, result.report.reproductions!.map((r) => r.curl).join('\n\n')).toBeDefined();
    const fresh = await startDeployment(renamesCreated);
    const dir = await mkdtemp(join(tmpdir(), 'pets-reproduce-'));
    try {
      // A fresh deployment gives ids from 61: the failed run's (past a hundred) name no pet there.
      const file = join(dir, 'reproduce.sh');
      await writeFile(file, reproduction!.curl);
      const { stdout } = await run('bash', [file], { env: { ...process.env, PETS_API_KEY: 'demo-pro', PETS_BASE_URL: fresh.baseUrl }, timeout: 60_000 });
      const requests = [...stdout.matchAll(/^--- #\d+ .* \(the run was answered (\d{3})\)$/gm)].map((m) => m[1]);
      const answered = [...stdout.matchAll(/^--- answered (\d{3})$/gm)].map((m) => m[1]);
      expect(requests).toHaveLength(reproduction!.curl.match(/^curl |\| curl /gm)!.length);
      expect(answered).toEqual(requests);
      expect(stdout).toMatch(/"name":"Renamed"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await fresh.close();
    }
  });
});

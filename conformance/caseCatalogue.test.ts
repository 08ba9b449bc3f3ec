import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { inProcessDeployment } from './testing/deployment.ts';
import { runSuite } from './testing/runSuite.ts';

/** Each kind of generated case, by the bullet of the catalogue that names it. */
const generatedKinds: [RegExp, string][] = [
  [/^generated\/sweep\/name-[1-8](\/read-back)?$/, '`generated/sweep/name-{1..8}`'],
  [/^generated\/sweep\/json-text\/[a-z-]+$/, '`generated/sweep/json-text/{spelling}`'],
  [/^generated\/sweep\/edge\/(name-\d+|huge-body|categoryId-[-\d]+)(\/read-back)?$/, '`generated/sweep/edge/name-{1..11}`'],
  [/^generated\/sweep\/malformed-id\/(hex|exponent|sign|fraction|trailing)$/, '`generated/sweep/malformed-id/{hex,exponent,sign,fraction,trailing}`'],
  [/^generated\/sweep\/count\/(available|pending|sold)$/, '`generated/sweep/count/{status}`'],
  [/^generated\/sweep\/once(\/read-back)?$/, '`generated/sweep/once`'],
  [/^generated\/sweep\/no-key\/(POST\/pets|DELETE\/pets\/\{id\}|PUT\/pets\/\{id\}|HEAD\/pets)$/, '`generated/sweep/no-key/{METHOD}/{path}`'],
  [/^generated\/sweep\/near-miss-key\/GET\/(pets\/|%70ets|PETS)$/, '`generated/sweep/near-miss-key/GET/{path}`'],
  [/^generated\/sweep\/near-miss-id\/(same|next|previous|bit-8|bit-16|times-ten|past-2\^32|past-2\^53|leading-zero)(\/head)?$/, '`generated/sweep/near-miss-id/{kind}`'],
  [/^generated\/sweep\/near-miss-status\/(prefix|cut-short|capitalised|padded-end|comma-list|repeated)$/, '`generated/sweep/near-miss-status/{kind}`'],
  [/^generated\/sweep\/no-key\/(read-back|list)$/, '`generated/sweep/no-key/read-back`'],
  [/^generated\/sweep\/(status-without-limit|unknown-parameter)$/, '`generated/sweep/status-without-limit`'],
  [/^generated\/sweep\/error-accept\/(any|text-html)$/, '`generated/sweep/error-accept/any`'],
  [/^generated\/sweep\/equivalent\/(plain|header-AUTHORIZATION,scheme-bearer,accept-absent|accept-q-values,query-reversed,if-none-match|query-percent-encoded)$/, '`generated/sweep/equivalent/{spelling}`'],
  [/^generated\/sweep\/accept-encoding\/(gzip|gzip-deflate-br|refused)$/, '`generated/sweep/accept-encoding/{gzip,gzip-deflate-br,refused}`'],
  [/^generated\/sweep\/burst\/[1-6](\/read-back)?$/, '`generated/sweep/burst/{1..6}`'],
  [/^generated\/sweep\/with-key\/((HEAD|OPTIONS|PUT)\/pets|POST\/pet)$/, '`generated/sweep/with-key/{HEAD,OPTIONS,PUT}/pets`'],
  [/^generated\/http\/(unknown-path|(list|pet)\/(get|head)|pet\/if-none-match\/(current|never-given|other-strength|in-a-list)|pet\/if-modified-since)$/, '`generated/http/{request}`'],
  [/^generated\/second-key\/[1-5]\//, '`generated/second-key/{1..5}/...`'],
  [
    /^generated\/\d+\/\d+\/(create|read-back|create-edge|create-invalid\/[\w-]+|list|list-invalid|list-alias|get|get-neighbour|get-malformed|get-alias|equivalent-(list|get|create)\/.+|relation-(list|get|create)\/.+|order\/(list|get)|unlisted\/[A-Z]+\/(pets|pet|pets-slash|pet-slash|unknown|nested)\/(key|no-key)|replay-keyless\/(none|near-miss|other-scheme|empty)|burst\/(create|get|list|read-back))$/,
    '`generated/{sequence}/{command}/`',
  ],
  [/^generated\/relations\/[1-5]\/1\/(relation-(list|get|create)\/[\w.,=^-]+|order\/(list|get)|burst\/(create|read-back))$/, '`generated/relations/{n}/1/{form}`'],
];

it('sends exactly the cases docs/conformance-cases.md lists, under the same names', async () => {
  const doc = await readFile(projectPath('docs', 'conformance-cases.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## `generated-traffic`'), doc.indexOf('## `http-framing`'));
  // A case sent only with a second key, only over sockets, only near a window's end, only for a
  // Location elsewhere or only when a request over the limit is lost is listed with that proviso;
  // this run has one key, in process, in the middle of a minute, against the mock (whose Location
  // is the pet's own URL, and which answers every request).
  const documented = [...doc.replace(section, '').matchAll(/^- `([^`]+)`(.*)$/gm)].filter((m) => !/with `--api-key-2` only|over sockets only|before its window's end|Location names another URL|after an answer that said none remain/.test(m[2]!)).map((m) => m[1]);
  const deployment = await inProcessDeployment();
  try {
    const result = await runSuite(deployment, { probeRateLimit: true });
    const sent = [...new Set(result.report.exchanges.map((e) => e.case))];
    expect(sent.filter((name) => !name!.startsWith('generated/'))).toEqual(documented);
    // Generated cases vary with the seed: each must be of a kind the catalogue names.
    for (const [, bullet] of generatedKinds) expect(section).toContain(bullet);
    const unnamed = sent.filter((name) => name!.startsWith('generated/') && !generatedKinds.some(([pattern]) => pattern.test(name!)));
    expect(unnamed).toEqual([]);
  } finally {
    await deployment.close();
  }
});

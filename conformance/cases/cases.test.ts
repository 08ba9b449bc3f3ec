import { describe, expect, it } from 'vitest';
import { componentSchema, findOperation } from '../../spec/loadSpec.ts';
import { testSpec } from '../../mock/testing.ts';
import { bodyCases } from './bodyCases.ts';
import { operationQueryCases } from './queryCases.ts';

const spec = await testSpec();

describe('cases generated from the spec', () => {
  it('derive limit\'s edges, default and violations from its schema, with stable names', () => {
    const cases = operationQueryCases(findOperation(spec, 'listPets'));
    expect(cases.filter((c) => c.parameter === 'limit').map((c) => [c.name, c.values.join('&'), c.expect])).toEqual([
      ['limit/absent', '', 'accept'],
      ['limit/min', '1', 'accept'],
      ['limit/below-min', '0', 'refuse'],
      ['limit/max', '100', 'accept'],
      ['limit/above-max', '101', 'refuse'],
      ['limit/default', '20', 'accept'],
      ['limit/beyond-int64', '9223372036854775808', 'refuse'],
      ['limit/float', '1.5', 'refuse'],
      ['limit/non-decimal', 'abc', 'refuse'],
      ['limit/negative', '-1', 'refuse'],
      ['limit/empty', '', 'open'],
      ['limit/repeated', '1&100', 'open'],
    ]);
  });

  it('derive each status value, an unknown one and a case variant from PetStatus', () => {
    const cases = operationQueryCases(findOperation(spec, 'listPets')).filter((c) => c.parameter === 'status');
    expect(cases.map((c) => `${c.name}=${c.values.join('&')}:${c.expect}`)).toEqual([
      'status/available=available:accept',
      'status/pending=pending:accept',
      'status/sold=sold:accept',
      'status/unknown=not-a-status:refuse-or-none',
      'status/case-variant=Available:refuse-or-none',
      'status/empty=:open',
      'status/repeated=available&pending:open',
    ]);
  });

  it('derive NewPet bodies at the edges, each rule broken once, and bodies that are no NewPet', () => {
    const cases = bodyCases(componentSchema(spec, 'NewPet'), { name: 'Rex', categoryId: 3, status: 'sold' }, 'NewPet');
    const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(expect.arrayContaining([
      'body/required-only', 'body/all-properties', 'body/status/available', 'body/status/pending', 'body/status/sold',
      'body/categoryId/max-safe', 'body/categoryId/min-safe', 'body/name/missing', 'body/categoryId/missing',
      'body/name/number', 'body/name/null', 'body/categoryId/string', 'body/categoryId/float', 'body/categoryId/beyond-int64',
      'body/categoryId/below-int64', 'body/status/unknown', 'body/status/case-variant', 'body/status/null',
      'body/empty', 'body/null', 'body/array', 'body/string', 'body/number', 'body/malformed', 'body/content-type',
      'body/charset', 'body/form-urlencoded', 'body/name/unicode',
    ]));
    expect(byName['body/categoryId/beyond-int64']!.body).toBe('{"name":"Rex","categoryId":9223372036854775808,"status":"sold"}');
    expect(byName['body/required-only']).toMatchObject({ expect: 'accept', sent: { name: 'Rex', categoryId: 3 } });
    expect(byName['body/status/null']!.expect).toBe('open');
    expect(byName['body/name/null']!.expect).toBe('refuse');
    expect(byName['body/content-type']).toMatchObject({ contentType: 'text/plain', expect: 'open' });
    expect(byName['body/empty']!.body).toBeUndefined();
    expect(() => JSON.parse(byName['body/malformed']!.body!)).toThrow();
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageCollector } from '../../common/usage/clientUsage.ts';
import { parseUsage, UsageFileError } from './readUsageFile.ts';
import { usageSchema } from './usageSchema.ts';

describe('the usage file', () => {
  it('has one JSON Schema: the file beside the suite is the module it checks by', () => {
    expect(JSON.parse(readFileSync(new URL('./usage.schema.json', import.meta.url), 'utf8'))).toEqual(usageSchema);
  });

  it('reads what the collector writes, and a hand-written file with only what it uses', () => {
    const collector = new UsageCollector();
    collector.add({ client: 'key:abc', label: 'demo…(9)', operationId: 'listPets', status: 200, query: { limit: 'in-range' }, given: ['id', 'name'] });
    collector.add({ client: 'key:abc', label: 'demo…(9)', operationId: undefined, status: 404 });
    const written = collector.file('proxy');
    expect(parseUsage(JSON.stringify(written), 'f')).toEqual(written);
    const hand = parseUsage('{"format":"pets-usage/1","clients":[{"client":"web","operations":[{"operationId":"getPet","reads":{"200":["name"]}}]}]}', 'f');
    expect(hand).toEqual({ format: 'pets-usage/1', source: 'hand', clients: [{ client: 'web', label: 'web', requests: 0, operations: [{ operationId: 'getPet', method: '', path: '', requests: 0, query: {}, body: [], reads: { 200: ['name'] }, statuses: [] }] }] });
  });

  it('reads the example docs/usage.md shows', () => {
    const doc = readFileSync(new URL('../../docs/usage.md', import.meta.url), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(doc)![1]!;
    expect(parseUsage(example, 'docs/usage.md').clients[0]!.operations.map((o) => o.operationId)).toEqual(['listPets', 'createPet']);
  });

  it('refuses what is not a usage file, saying what is wrong', () => {
    expect(() => parseUsage('{', 'u.json')).toThrow(UsageFileError);
    expect(() => parseUsage('{"format":"pets-usage/1","clients":[{"client":"web","operations":[{"operationId":"deletePet"}]}]}', 'u.json')).toThrow(/--usage u.json is not a usage file: clients\[0\]\.operations\[0\]\.operationId is "deletePet", not one of listPets, createPet, getPet.*\. See docs\/usage\.md/);
    expect(() => parseUsage('{"format":"pets-usage/1","clients":[]}', 'u.json')).toThrow(/names no client/);
  });
});

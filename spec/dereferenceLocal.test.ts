import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { dereferenceLocal } from './dereferenceLocal.ts';
import { defaultSpecPath, loadSpec } from './loadSpec.ts';

const contract = () => load(readFileSync(defaultSpecPath, 'utf8')) as Record<string, unknown>;

describe('dereferenceLocal', () => {
  it('dereferences the contract as swagger-parser does', async () => {
    const ours = dereferenceLocal(contract());
    const theirs = await SwaggerParser.dereference(contract() as never);
    expect(ours).toBeDefined();
    expect(JSON.stringify(ours)).not.toContain('$ref');
    expect(ours).toEqual(theirs);
  });

  it('gives every use of one target the same object, and a target that refers to another its object', () => {
    const doc = { openapi: '3.0.3', components: { schemas: { Pet: { type: 'object', properties: { tag: { $ref: '#/components/schemas/Tag' } } }, Tag: { type: 'string' }, Alias: { $ref: '#/components/schemas/Pet' } } }, a: { $ref: '#/components/schemas/Pet' }, b: { $ref: '#/components/schemas/Alias' } };
    const out = dereferenceLocal(doc) as unknown as { a: unknown; b: unknown; components: { schemas: { Pet: { properties: { tag: unknown } }; Tag: unknown } } };
    expect(out.a).toBe(out.b);
    expect(out.a).toBe(out.components.schemas.Pet);
    expect(out.components.schemas.Pet.properties.tag).toBe(out.components.schemas.Tag);
  });

  it('makes a schema that refers to itself a circular object', () => {
    const doc = { components: { schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } } } };
    const node = (dereferenceLocal(doc) as typeof doc).components.schemas.Node;
    expect(node.properties.next).toBe(node);
  });

  it('reads a pointer\'s escapes (~1 for /, ~0 for ~) and percent-encoding', () => {
    const doc = { paths: { '/pets/{id}': { 'x~y': { ok: true } } }, a: { $ref: '#/paths/~1pets~1%7Bid%7D/x~0y' } };
    expect((dereferenceLocal(doc) as unknown as { a: unknown }).a).toEqual({ ok: true });
  });

  it.each([
    ['a reference to another file', { a: { $ref: 'other.yaml#/Pet' } }],
    ['a reference with keys beside it', { Pet: { type: 'string' }, a: { $ref: '#/Pet', description: 'x' } }],
    ['a reference to nothing', { a: { $ref: '#/missing' } }],
    ['references that only point at each other', { a: { $ref: '#/b' }, b: { $ref: '#/a' } }],
  ])('leaves a document with %s to swagger-parser, untouched', (_, doc) => {
    const before = structuredClone(doc);
    expect(dereferenceLocal(doc)).toBeUndefined();
    expect(doc).toEqual(before);
  });

  it('gives loadSpec the same contract with and without swagger-parser', async () => {
    const fast = await loadSpec(defaultSpecPath, { validate: false });
    const full = await loadSpec(defaultSpecPath);
    expect(fast.document).toEqual(full.document);
  });
});

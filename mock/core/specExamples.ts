import type { OpenAPIV3 } from 'openapi-types';
import type { LoadedSpec, SpecOperation } from '../../spec/specModel.ts';
import type { PrismAnswer, PrismResponder } from '../prism/prismResponder.ts';
import { seededRandom } from '../../common/seededRandom.ts';

interface Ask {
  code?: number;
  exampleKey?: string;
  dynamic?: boolean;
  seed?: string;
}

/**
 * Answers from the OpenAPI document itself where Prism cannot run (a browser): the status asked
 * for or the operation's first 2xx, the named example, else the response's first example, else a
 * body json-schema-faker makes from its schema (loaded only then). The pipeline gives Pet and Pets
 * bodies their realistic content afterwards, as it does to Prism's answers on the server.
 */
export function specExamples(_spec: LoadedSpec): PrismResponder {
  return {
    async respond(op: SpecOperation, ask: Ask = {}): Promise<PrismAnswer> {
      const status = ask.code ?? Number(Object.keys(op.operation.responses).filter((s) => /^2\d\d$/.test(s)).sort()[0] ?? 200);
      const response = op.operation.responses[String(status)] as OpenAPIV3.ResponseObject | undefined;
      const media = response?.content?.['application/json'];
      if (!media) return { status, headers: {}, body: undefined };
      const examples = media.examples as Record<string, OpenAPIV3.ExampleObject> | undefined;
      const named = ask.exampleKey !== undefined ? examples?.[ask.exampleKey] : Object.values(examples ?? {})[0];
      if (named) return { status, headers: { 'content-type': 'application/json' }, body: named.value };
      if (media.example !== undefined) return { status, headers: { 'content-type': 'application/json' }, body: media.example };
      return { status, headers: { 'content-type': 'application/json' }, body: await generated(media.schema as object | undefined, ask) };
    },
    warm() {},
    async close() {},
  };
}

async function generated(schema: object | undefined, ask: Ask): Promise<unknown> {
  if (!schema) return undefined;
  const { JSONSchemaFaker } = await import('json-schema-faker');
  JSONSchemaFaker.option({ useExamplesValue: !ask.dynamic, useDefaultValue: !ask.dynamic, alwaysFakeOptionals: false, ...(ask.seed !== undefined || !ask.dynamic ? { random: seeded(ask.seed ?? 'static') } : {}) });
  return JSONSchemaFaker.generate(structuredClone(schema) as never);
}

/** A seeded random source: one seed (any text, FNV-1a hashed) gives one body. */
function seeded(seed: string): () => number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return seededRandom(hash);
}

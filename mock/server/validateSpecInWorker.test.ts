import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSpecPath } from '../../spec/loadSpec.ts';
import { validateSpecInWorker } from './validateSpecInWorker.ts';

describe('validateSpecInWorker', () => {
  it('resolves for the contract', async () => {
    await expect(validateSpecInWorker(defaultSpecPath)).resolves.toBeUndefined();
  });

  it('rejects a document that parses but is not valid OpenAPI, saying what is wrong', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'spec-')), 'openapi.yaml');
    await copyFile(defaultSpecPath, path);
    await writeFile(path, `${await readFile(path, 'utf8')}\nnotAnOpenApiField: true\n`);
    await expect(validateSpecInWorker(path)).rejects.toThrow(/notAnOpenApiField|additional/i);
  });

  it('answers validations asked at once, each with its own verdict', async () => {
    const bad = join(await mkdtemp(join(tmpdir(), 'spec-')), 'openapi.yaml');
    await writeFile(bad, 'openapi: 3.0.3\ninfo: { title: x }\npaths: {}\n');
    const verdicts = await Promise.allSettled([validateSpecInWorker(defaultSpecPath), validateSpecInWorker(bad), validateSpecInWorker(defaultSpecPath)]);
    expect(verdicts.map((v) => v.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

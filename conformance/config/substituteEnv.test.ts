import { describe, expect, it } from 'vitest';
import { MissingVariableError, substituteEnv } from './substituteEnv.ts';

describe('${NAME} in a config file', () => {
  it('is replaced from the environment, and says which variables it used', () => {
    const { text, used } = substituteEnv('Bearer-ish ${TOKEN} for ${TENANT}', { TOKEN: 't-1', TENANT: 'acme' });
    expect(text).toBe('Bearer-ish t-1 for acme');
    expect([...used]).toEqual([['TOKEN', 't-1'], ['TENANT', 'acme']]);
  });

  it('takes a default when the variable is unset, and $${ for a literal ${', () => {
    expect(substituteEnv('${DIR:-reports}/$${NOT_ME}', {}).text).toBe('reports/${NOT_ME}');
    expect(substituteEnv('${DIR:-reports}', { DIR: 'out' }).text).toBe('out');
  });

  it('refuses a variable that is not set, naming it', () => {
    expect(() => substituteEnv('${PETS_API_KEY}', {})).toThrow(MissingVariableError);
    expect(() => substituteEnv('${PETS_API_KEY}', {})).toThrow('${PETS_API_KEY} is used but PETS_API_KEY is not set');
  });
});

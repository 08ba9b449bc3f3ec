import { describe, expect, it } from 'vitest';
import { resolveRedisOptions } from './resolveRedisOptions.ts';

describe('resolveRedisOptions', () => {
  it('keeps the state in memory when neither --redis nor PETS_MOCK_REDIS_URL is given', () => {
    expect(resolveRedisOptions({}, {})).toBeUndefined();
    expect(resolveRedisOptions({ stateFile: 'state.json' }, { PETS_MOCK_REDIS_URL: '  ' })).toBeUndefined();
  });

  it('takes the URL from --redis over the environment, with the default prefix', () => {
    expect(resolveRedisOptions({ redis: 'redis://a:6379/1' }, { PETS_MOCK_REDIS_URL: 'redis://b:6379' })).toEqual({ url: 'redis://a:6379/1', prefix: 'pets-mock:' });
    expect(resolveRedisOptions({ redisPrefix: 'team-a:' }, { PETS_MOCK_REDIS_URL: 'rediss://:pw@b:6380' })).toEqual({ url: 'rediss://:pw@b:6380', prefix: 'team-a:' });
  });

  it('takes a --replica-id with Redis, and refuses one without Redis or one that would not read as one log field', () => {
    expect(resolveRedisOptions({ redis: 'redis://a', replicaId: 'web-1' }, {})).toEqual({ url: 'redis://a', prefix: 'pets-mock:', replicaId: 'web-1' });
    expect(() => resolveRedisOptions({ replicaId: 'web-1' }, {})).toThrow('--replica-id needs Redis');
    expect(() => resolveRedisOptions({ redis: 'redis://a', replicaId: 'web 1' }, {})).toThrow('--replica-id "web 1" is not printable ASCII without spaces. Give a short name without spaces, such as "web-1"');
    expect(() => resolveRedisOptions({ redis: 'redis://a', replicaId: '' }, {})).toThrow('--replica-id "" is empty.');
  });

  it('refuses a state file with Redis, naming where the URL came from', () => {
    expect(() => resolveRedisOptions({ redis: 'redis://a', stateFile: 's.json' }, {})).toThrow('--state-file cannot be used with --redis: Redis holds the state');
    expect(() => resolveRedisOptions({ stateFile: 's.json' }, { PETS_MOCK_REDIS_URL: 'redis://a' })).toThrow('--state-file cannot be used with PETS_MOCK_REDIS_URL');
  });

  it('refuses a URL it cannot use, a prefix without Redis, and an empty prefix', () => {
    expect(() => resolveRedisOptions({ redis: 'http://a' }, {})).toThrow('--redis: The Redis URL http://a has the scheme "http:"');
    expect(() => resolveRedisOptions({}, { PETS_MOCK_REDIS_URL: 'redis://:secret@a/x' })).toThrow(/^PETS_MOCK_REDIS_URL: The Redis URL redis:\/\/:\*\*\*@a\/x has the path/);
    expect(() => resolveRedisOptions({ redisPrefix: 'x:' }, {})).toThrow('--redis-prefix needs Redis');
    expect(() => resolveRedisOptions({ redis: 'redis://a', redisPrefix: '' }, {})).toThrow(/is empty or has spaces/);
  });
});

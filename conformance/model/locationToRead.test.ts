import { describe, expect, it } from 'vitest';
import { exchange } from '../testing/exchanges.ts';
import { ex, failuresOf, judgementsOf, rate } from './testing/modelExchanges.ts';
import { locationToRead, outsideTheBase } from './locationToRead.ts';

const created = (location: string | readonly string[] | undefined, path = '/pets') => {
  const e = exchange({ method: 'POST', path, status: 201, operationId: 'createPet', body: '{"id":70,"name":"Rex","categoryId":2}' });
  const lines: [string, string][] = location === undefined ? [] : (typeof location === 'string' ? [location] : location).map((value) => ['location', value]);
  return { ...e, response: { ...e.response, headers: { ...e.response.headers, ...(lines.length > 0 ? { location: lines.map(([, v]) => v).join(', ') } : {}) }, rawHeaders: [...e.response.rawHeaders, ...lines] } };
};

describe('locationToRead', () => {
  it('reads nothing without a Location, with two, or with one that is no URI or names another origin', () => {
    for (const location of [undefined, ['/v1/animals/70', '/v1/animals/70'], 'http://[::1', 'https://public.example/v1/pets/70', '//cdn.example/pets/70']) expect(locationToRead(created(location), '70'), String(location)).toBeUndefined();
  });

  it('reads nothing for the pet\'s own URL under the base, however it is written, which the run reads by id anyway', () => {
    for (const location of ['/v1/pets/70', 'pets/70', 'http://api.test/v1/pets/70', '/v1/pets/70#top', './pets/70']) expect(locationToRead(created(location), '70'), location).toBeUndefined();
  });

  it('reads nothing for /pets/<another id>, which names another pet on its face', () => {
    expect(locationToRead(created('/v1/pets/69'), '70')).toBeUndefined();
  });

  it('reads another URL under the base, its query kept, with the operation GET of it names', () => {
    expect(locationToRead(created('/v1/animals/a70'), '70')).toEqual({ location: '/v1/animals/a70', url: 'http://api.test/v1/animals/a70', path: '/animals/a70', operationId: 'unlisted' });
    expect(locationToRead(created('/v1/pets/70?view=full'), '70')).toEqual({ location: '/v1/pets/70?view=full', url: 'http://api.test/v1/pets/70?view=full', path: '/pets/70?view=full', operationId: 'getPet' });
  });

  it('takes the pet\'s own URL written with an empty query or percent-encodings in another case as the pet\'s', () => {
    for (const location of ['/v1/pets/70?', 'http://api.test/v1/pets/70?']) expect(locationToRead(created(location), '70'), location).toBeUndefined();
    const encoded = (location: string) => {
      const e = created(location, '/p%c3%a9ts');
      return { ...e, request: { ...e.request, url: 'http://api.test/v1/p%c3%a9ts' } };
    };
    expect(locationToRead(encoded('/v1/p%C3%A9ts/70'), '70')).toEqual(expect.objectContaining({ path: '/p%C3%A9ts/70' }));
  });

  it('climbs out of a base with an empty segment with one dot segment for each of its segments', () => {
    const e = created('/api/v1/pets/70');
    const under = { ...e, path: '/pets', request: { ...e.request, url: 'http://api.test/api//v1/pets' } };
    const read = locationToRead(under, '70')!;
    expect(read.path).toBe('/../../../api/v1/pets/70');
    expect(new URL(`http://api.test/api//v1${read.path}`).href).toBe('http://api.test/api/v1/pets/70');
  });

  it('tells a request outside the base, which the model leaves alone, from one inside it', () => {
    const at = (path: string) => ({ path, request: { method: 'GET', url: `http://api.test/v1${path}`, headers: {} } });
    expect(outsideTheBase(at('/../pets/70'))).toBe(true);
    expect(outsideTheBase(at('/%2e%2E/pets/70'))).toBe(true);
    for (const path of ['/pets/70', '/pets/../pets/70', '/pets/1.5', '/./pets']) expect(outsideTheBase(at(path)), path).toBe(false);
  });

  it('climbs out of the base with dot segments for a URL of the origin outside it, which resolves to that URL', () => {
    const read = locationToRead(created('/pets/70'), '70')!;
    expect(read).toEqual({ location: '/pets/70', url: 'http://api.test/pets/70', path: '/../pets/70', operationId: 'unlisted' });
    expect(new URL(`http://api.test/v1${read.path}`).href).toBe(read.url);
  });
});

describe('the model and a request outside the base', () => {
  it('judges nothing of it, and counts it for the key as an attempt that may have been counted', () => {
    const page = ex({ path: '/../pets/70', status: 500, headers: { 'content-type': 'text/html', ...rate(4999, { limit: 5000 }) }, body: '<html>oops</html>' });
    const judgements = judgementsOf([ex({ status: 200, headers: rate(9), body: '[]' }), page, ex({ status: 200, headers: rate(7), body: '[]' })]);
    expect(judgements.filter((j) => j.exchange?.seq === page.seq)).toEqual([]);
    expect(failuresOf(judgements)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseLossless } from '../../common/json/losslessJson.ts';
import { jsonMediaTypes, jsonSpellings, plainJson, type NewPetText } from './jsonSpellings.ts';

const pets: NewPetText[] = [
  { name: 'Rex/Max', categoryId: '4' },
  { name: 'Zoë 🐾 "quoted" \\ back', categoryId: '9223372036854775807', status: 'pending' },
  { name: '', categoryId: '-9007199254740991', status: 'sold' },
];

describe('jsonSpellings: other JSON texts of one NewPet', () => {
  it.each(jsonSpellings.map((s) => [s.name, s] as const))('%s writes the same value as the plain text (RFC 8259), integers exact', (_, spelling) => {
    for (const pet of pets) expect(parseLossless(spelling.write(pet)), `${spelling.name} ${pet.name}`).toEqual(parseLossless(plainJson(pet)));
  });

  it('writes texts that differ from the plain one, each from the others, for a name with letters, a / and a letter outside ASCII', () => {
    const pet = { name: 'Zoë/Rex', categoryId: '3' };
    const texts = jsonSpellings.map((s) => s.write(pet));
    for (const text of texts) expect(text).not.toBe(plainJson(pet));
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('escapes letters, characters outside ASCII and the solidus where the spelling says', () => {
    const write = (name: string, pet: NewPetText) => jsonSpellings.find((s) => s.name === name)!.write(pet);
    expect(write('letters-escaped', { name: 'Rex', categoryId: '1' })).toBe('{"name":"\\u0052\\u0065\\u0078","categoryId":1}');
    expect(write('ascii-only', { name: 'é🐾', categoryId: '1' })).toBe('{"name":"\\u00e9\\ud83d\\udc3e","categoryId":1}');
    expect(write('solidus-escaped', { name: 'a/b', categoryId: '1' })).toBe('{"name":"a\\/b","categoryId":1}');
  });
});

describe('jsonMediaTypes', () => {
  it('are each application/json once case, spaces and quotes are set aside (RFC 9110, 8.3.1, 5.6.6)', () => {
    for (const type of jsonMediaTypes) {
      const [essence, ...params] = type.split(';');
      expect(essence!.trim().toLowerCase()).toBe('application/json');
      for (const p of params) expect(p.trim().toLowerCase().replaceAll('"', '')).toBe('charset=utf-8');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { errorCodeOf, isErrorBody } from './errorBody.ts';

describe('errorBody', () => {
  it('reads the code of an object with a string code, and nothing else', () => {
    expect(errorCodeOf({ code: 'PET_NOT_FOUND', message: 'x', status: 404 })).toBe('PET_NOT_FOUND');
    expect(errorCodeOf({ code: 7 })).toBeUndefined();
    expect(errorCodeOf([{ code: 'A' }])).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
    expect(errorCodeOf(null)).toBeUndefined();
  });
  it('holds a body to the Error the contract pins: code and message strings, status the HTTP status', () => {
    expect(isErrorBody({ code: 'A', message: 'm', status: 400 }, 400)).toBe(true);
    expect(isErrorBody({ code: 'A', message: 'm', status: 400 }, 404)).toBe(false);
    expect(isErrorBody({ code: 'A', status: 400 }, 400)).toBe(false);
    expect(isErrorBody({ message: 'm', status: 400 }, 400)).toBe(false);
    expect(isErrorBody('A', 400)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { parseMonitorLine } from './monitorRedis.ts';

describe('parseMonitorLine', () => {
  it('reads the arguments and the source of a command a client sent', () => {
    expect(parseMonitorLine('1339518083.107412 [0 127.0.0.1:60866] "keys" "*"')).toEqual({ args: ['keys', '*'], source: '127.0.0.1:60866' });
  });

  it('marks a command a script ran with "lua"', () => {
    expect(parseMonitorLine('1795996241.986994 [0 lua] "RPUSH" "bench:log" "x"')).toEqual({ args: ['RPUSH', 'bench:log', 'x'], source: 'lua' });
  });

  it("undoes Redis's quoting: escaped quotes, backslashes, control characters and UTF-8 as hex bytes", () => {
    const line = String.raw`1.5 [0 127.0.0.1:1] "SET" "{\"key\":\"demo\xe2\x80\xa6\"}" "a\\b\r\n\t" ""`;
    expect(parseMonitorLine(line)?.args).toEqual(['SET', '{"key":"demo…"}', 'a\\b\r\n\t', '']);
  });

  it('gives nothing for a line that is not a command', () => {
    expect(parseMonitorLine('OK')).toBeUndefined();
    expect(parseMonitorLine('1.5 [0 lua] "unterminated')).toBeUndefined();
    expect(parseMonitorLine('1.5 [0 lua] bare')).toBeUndefined();
  });
});

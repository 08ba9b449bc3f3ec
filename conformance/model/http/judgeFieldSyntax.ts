// Every field line, whatever its name: the name a token (RFC 9110, 5.1), the value free of CR, LF,
// NUL (5.5: "invalid and dangerous") and of the other controls field-content excludes.
import { broken, held, type Judgement } from '../judgement.ts';
import type { Answer } from './answerFields.ts';
import { forbiddenCharacters, isToken } from './fieldSyntax.ts';

export function judgeFieldSyntax(answer: Answer): Judgement[] {
  const faults: string[] = [];
  for (const [name, value] of answer.exchange.response.rawHeaders) {
    if (!isToken(name)) faults.push(`the field name ${JSON.stringify(name)} is not a token`);
    const { dangerous, controls } = forbiddenCharacters(value);
    if (dangerous.length > 0) faults.push(`${name} holds ${dangerous.join(', ')} (CR, LF or NUL)`);
    if (controls.length > 0) faults.push(`${name} holds the control character${controls.length > 1 ? 's' : ''} ${controls.join(', ')}`);
  }
  if (faults.length === 0) return [held('http.field-syntax', answer.op, answer.exchange)];
  return [broken('http.field-syntax', answer.op, answer.exchange, `${answer.where}: ${faults.join('; ')}. A field line is a token name and visible characters, spaces and tabs (RFC 9110, 5.1, 5.5); a recipient must reject such a message or blank the characters out.`)];
}

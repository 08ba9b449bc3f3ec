// Access-Control-Allow-Origin and -Allow-Credentials (Fetch Standard, 3.2.3): one origin, `null`
// or `*`, and `*` never with credentials. The contract shows no CORS, so these are warnings.
import { held, questionable, type Judgement } from '../judgement.ts';
import type { Answer } from './answerFields.ts';

/** A serialized origin (RFC 6454, 6.2): scheme "://" host [ ":" port ], nothing after. */
const origin = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:\[[0-9A-Fa-f:.]+\]|[^\s/?#:@[\]]+)(?::\d+)?$/;

export function judgeCorsFields(answer: Answer): Judgement[] {
  const lines = answer.lines('access-control-allow-origin');
  if (lines.length === 0) return [];
  const { exchange, where } = answer;
  const faults: string[] = [];
  const value = lines[0]!;
  if (lines.length > 1) faults.push(`Access-Control-Allow-Origin is sent ${lines.length} times (${lines.map((l) => JSON.stringify(l)).join(', ')}); a browser fails the CORS check unless there is one value`);
  else if (value !== '*' && value !== 'null' && !origin.test(value)) faults.push(`Access-Control-Allow-Origin ${JSON.stringify(value)} is not one origin (scheme://host[:port], no path, no list), "null" or "*"; a browser fails the CORS check`);
  const credentials = answer.field('access-control-allow-credentials');
  if (credentials !== undefined && credentials !== 'true') faults.push(`Access-Control-Allow-Credentials ${JSON.stringify(credentials)} is not "true", its only value (case-sensitive)`);
  if (value === '*' && credentials === 'true') faults.push('Access-Control-Allow-Origin "*" comes with Access-Control-Allow-Credentials "true"; a browser refuses a credentialed request so answered: name the origin instead');
  if (faults.length === 0) return [held('http.cors-origin', answer.op, exchange)];
  return [questionable('http.cors-origin', answer.op, exchange, `${where}: ${faults.join('; ')} (Fetch Standard, 3.2.3). The contract shows no CORS, so this is a warning.`)];
}

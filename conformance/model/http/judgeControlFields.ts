// The fields that direct a client: Allow (RFC 9110, 10.2.1), Location and Content-Location
// (10.2.2, 8.7), Retry-After (10.2.3) and Link (RFC 8288, 3). A 201's Location names the pet the
// answer created (15.3.2).
import { integerText } from '../../../common/json/losslessJson.ts';
import { broken, held, holds, type Judgement } from '../judgement.ts';
import { sentTwice, type Answer } from './answerFields.ts';
import { isDelaySeconds, isToken, listMembers } from './fieldSyntax.ts';
import { httpDateFault } from './judgeValidatorFields.ts';
import { parseHttpDate } from './httpDate.ts';
import { parseLinks } from './linkValues.ts';
import { uriReferenceFault } from './uriReference.ts';

function judgeAllow(answer: Answer): Judgement[] {
  const value = answer.field('allow');
  if (value === undefined) return [];
  // An empty Allow says the resource allows no method (10.2.1).
  const members = value.trim() === '' ? [] : listMembers(value);
  const bad = members === undefined ? [value] : members.filter((m) => !isToken(m));
  return [holds(bad.length === 0, 'http.allow', answer.op, answer.exchange, () => `${answer.where} has Allow ${JSON.stringify(value)}: ${bad.map((b) => JSON.stringify(b)).join(', ')} ${bad.length > 1 ? 'are' : 'is'} not a method token (RFC 9110, 10.2.1). List the methods as "GET, POST".`)];
}

/** The id a created pet's Location names (`.../pets/<id>`), resolved against the request's URL. */
function locatedId(location: string, requestUrl: string): string | undefined {
  try {
    const segment = /\/pets\/([^/]+)$/.exec(new URL(location, requestUrl).pathname)?.[1];
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function judgeLocation(answer: Answer): Judgement[] {
  const out: Judgement[] = [];
  const { exchange, where, status } = answer;
  for (const name of ['Location', 'Content-Location'] as const) {
    const value = answer.field(name);
    if (value === undefined) continue;
    const twice = sentTwice(answer, 'http.location', name);
    if (twice) {
      out.push(twice);
      continue;
    }
    // Content-Location is absolute-URI / partial-URI (8.7): a URI-reference without a fragment.
    const fault = uriReferenceFault(value) ?? (name === 'Content-Location' && value.includes('#') ? 'it has a fragment, which absolute-URI / partial-URI exclude' : undefined);
    if (fault) {
      out.push(broken('http.location', answer.op, exchange, `${where} has ${name} ${JSON.stringify(value)}, not a URI reference: ${fault} (RFC 3986). Percent-encode what RFC 3986 does not allow.`));
      continue;
    }
    if (name === 'Location' && status === 201 && answer.op === 'createPet') {
      const created = integerText((exchange.response.value as { id?: unknown } | undefined)?.id);
      const named = locatedId(value, exchange.request.url);
      // A Location elsewhere than /pets/{id} is the deployment's choice; /pets/<another id> names another pet.
      if (created !== undefined && named !== undefined && /^-?\d+$/.test(named)) {
        out.push(holds(BigInt(named) === BigInt(created), 'http.location', answer.op, exchange, () => `${where} created pet ${created} and says Location ${JSON.stringify(value)}, which names pet ${named}; a 201's Location identifies the resource created (RFC 9110, 15.3.2).`));
        continue;
      }
    }
    out.push(held('http.location', answer.op, exchange));
  }
  return out;
}

function judgeRetryAfter(answer: Answer): Judgement[] {
  // Each line judged: wire.header-once reports a second one.
  return answer.lines('retry-after').map((value) => {
    const fault = isDelaySeconds(value) ? undefined : httpDateFault(value);
    // A date in an obsolete form is a date still: say so rather than "neither".
    const obsolete = parseHttpDate(value) !== undefined;
    return holds(fault === undefined, 'headers.retry-after', answer.op, answer.exchange, () => `${answer.where} has Retry-After ${JSON.stringify(value)}: ${obsolete ? fault : 'neither delay-seconds (digits) nor an IMF-fixdate'} (RFC 9110, 10.2.3). A client cannot tell when to retry.`);
  });
}

function judgeLink(answer: Answer): Judgement[] {
  const value = answer.field('link');
  if (value === undefined) return [];
  const parsed = parseLinks(value);
  return [holds(!('fault' in parsed), 'http.link', answer.op, answer.exchange, () => `${answer.where} has Link ${JSON.stringify(value)}: ${(parsed as { fault: string }).fault} (RFC 8288, 3). Write each link as <uri>; rel="name".`)];
}

export function judgeControlFields(answer: Answer): Judgement[] {
  return [...judgeAllow(answer), ...judgeLocation(answer), ...judgeRetryAfter(answer), ...judgeLink(answer)];
}

// The model's rules reported as checks: each check judges every exchange of the run (a passive
// check), so its verdict alone is the verdict it gives in a full run.
import type { Check, Outcomes } from '../check.ts';
import type { Judgement } from './judgement.ts';
import { rules, type Rule } from './rules.ts';

const operations = ['listPets', 'createPet', 'getPet', 'listStoreOrders', 'unlisted'] as const;

interface ModelCheckInfo {
  id: string;
  title: string;
  severity: Check['severity'];
  description: string;
  /** Its rules read bodies: a body the run's own budget kept only in part is reported not judged. */
  readsBodies?: boolean;
}

/** Reports the model's judgements of the rules a check owns: a failure or warning each, quoting its rule; held ones examine their operation. */
export function reportRules(checkId: string, judgements: readonly Judgement[], report: Outcomes): void {
  const own = new Map<string, Rule>(rules.filter((r) => r.checkId === checkId).map((r) => [r.id, r]));
  for (const judgement of judgements) {
    const rule = own.get(judgement.rule);
    if (!rule) continue;
    const { operationId, exchange } = judgement;
    if (judgement.outcome === 'held') report.examined(operationId);
    else {
      const extra = { rule: { id: rule.id, quote: rule.quote }, ...(judgement.related ? { related: judgement.related } : {}) };
      // A rule of HTTP itself quotes its RFC (or the Fetch Standard), not the contract.
      const source = /^(RFC|Fetch)/.test(rule.quote) ? 'The standard' : 'The contract';
      const message = `${judgement.message} ${source}: "${rule.quote}"`;
      if (judgement.outcome === 'failure') report.fail(operationId, message, exchange, rule.id, extra);
      else report.warn(operationId, message, exchange, rule.id, extra);
    }
  }
}

function modelCheck(info: ModelCheckInfo): Check {
  return {
    id: info.id,
    title: info.title,
    severity: info.severity,
    description: info.description,
    operations,
    phase: 'passive',
    async run(ctx, report) {
      reportRules(info.id, ctx.model().judgements, report);
      if (info.readsBodies) {
        for (const exchange of ctx.exchanges) {
          if (exchange.response.keptInPart === undefined) continue;
          const op = (operations as readonly string[]).includes(exchange.operationId) ? exchange.operationId : 'unlisted';
          report.inconclusive(op, `${exchange.request.method} ${exchange.path} was answered ${exchange.response.status}, but ${exchange.response.keptInPart}`, exchange.case);
        }
      }
      for (const op of operations) report.skip(op, 'no exchange of the run reached its rules');
    },
  };
}

export const dataIntegrity = modelCheck({
  id: 'data-integrity',
  readsBodies: true,
  title: 'What is read back is what was created, one id one pet',
  severity: 'critical',
  description:
    'Every pet the run creates or reads is held by the model; every later answer (the 201, getPet, every item of every list) must equal it field by field, ' +
    'character by character. Ids are unique within a list and across the run, a create gets a new id, a created pet is found by its id, a filtered list ' +
    'holds only its status and `limit` bounds every list, however the query is spelled.',
});

export const rateLimitAccounting = modelCheck({
  id: 'rate-limit-accounting',
  title: 'Rate limits add up, per key and window',
  severity: 'high',
  description:
    'Within a window (answers with one X-RateLimit-Reset), Limit is one value, each request accepted with the key costs exactly one and Remaining never rises; ' +
    'parallel requests are each counted; a 429 comes only once Remaining reached 0, says 0, and its Retry-After is not shorter than the time to Reset; ' +
    'after it, nothing with the key is served before the reset. Assumes the run is the key\'s only user (--shared-key relaxes this).',
});

export const wireFormat = modelCheck({
  id: 'wire-format',
  readsBodies: true,
  title: 'Answers as bytes: UTF-8, no BOM, a true charset, one JSON value, each header once',
  severity: 'high',
  description: 'Bodies are judged as bytes, as any client reads them: UTF-8, no byte-order mark, a charset label that tells the truth, one JSON value, each rate-limit header once, and a body of readable size.',
});

export const deprecation = modelCheck({
  id: 'deprecation',
  title: 'Deprecation facts hold wherever they are stated',
  severity: 'medium',
  description: 'Only getPet may be declared deprecated (Deprecation or Sunset on another operation fails); a Sunset on getPet names 5 December 2030, and a Deprecation instant lies before it. Wherever sent, Deprecation is a structured-field date (@<seconds>) and Sunset an IMF-fixdate.',
});

export const keylessAndUnlisted = modelCheck({
  id: 'keyless-and-unlisted',
  readsBodies: true,
  title: 'Nothing is served without the key, and undocumented requests are refused properly',
  severity: 'critical',
  description:
    'Every request without a valid key (any spelling, on a connection that just carried the key, for a URL just fetched with it) is refused with 401, and a key once ' +
    'served is accepted on every operation; methods and paths ' +
    'the spec does not list (HEAD, PUT, PATCH, DELETE, OPTIONS, a trailing slash, unknown paths) are never served without the key (a CORS preflight aside), never answered 5xx, ' +
    'and refused with the rate-limit headers and an Error body (HEAD: the headers).',
});

export const equivalentRequests = modelCheck({
  id: 'equivalent-requests',
  title: 'Equivalent forms of a request get the same outcome',
  severity: 'high',
  description:
    'Metamorphic relations: one valid request sent in forms the contract makes the same request (the headers of browsers, HTTP libraries, CLIs and gateways; ' +
    'header-name and scheme case; Accept; other JSON texts of one value; spellings of application/json; parameter order and encoding; a fresh connection; ' +
    'another client address) gets the status and kind of Error of its first form, the same pets back, and costs the key\'s window the same; two reads in ' +
    'either order are answered alike. A 403 to a form with an Origin (a CORS policy) is a warning.',
});

export const httpSemantics = modelCheck({
  id: 'http-semantics',
  title: 'HTTP itself: every field parsed with its grammar and held to its meaning, every status to what it says',
  severity: 'high',
  description:
    'An HTTP linter on every exchange: each field a deployment sends (Content-Type, Content-Length, Transfer-Encoding, Content-Encoding, Date, Last-Modified, ETag, ' +
    'Cache-Control, Expires, Age, Vary, Allow, Location, Content-Location, Retry-After, WWW-Authenticate, Link, Access-Control-Allow-Origin) is parsed with its RFC grammar ' +
    'and held to its meaning; a 405 carries a true Allow, 204, 304 and HEAD carry no content, a 304 answers only a conditional GET or HEAD whose condition was false and ' +
    'carries what its 200 would and the rate-limit headers, a HEAD served answers as GET would, a strong ETag names one body, and a key one answer served is never refused 401 elsewhere. ' +
    'What HTTP requires but the contract does not (Date, WWW-Authenticate on a 401, CORS) is a warning.',
});

export const modelChecks: readonly Check[] = [dataIntegrity, rateLimitAccounting, wireFormat, deprecation, keylessAndUnlisted, equivalentRequests, httpSemantics];

// The third catalogue (testing/regressions3.ts) against the deploy gate (testing/describeCatalogue.ts):
// its survivors, each with why a gate run lets it through, and its false alarms (none).
import { describeCatalogue, type Why } from './testing/describeCatalogue.ts';
import { legalVariants3, regressions3 } from './testing/regressions3.ts';

const survivors: Record<string, { why: Why; detail: string }> = {
  'first request after 5 s idle answered 502 by the load balancer': { why: 'not sent', detail: 'no two consecutive requests of a default gate run are 5 s apart on the deployment\'s clock' },
  'HEAD answered with a body poisons the next request': { why: 'retried', detail: 'the 502 that follows each HEAD (HTML, no rate-limit headers) is taken as transient and resent after 0.5 s, and the resend succeeds; the request answered 502 had reached the origin' },
  '401 without WWW-Authenticate': { why: 'warned', detail: 'seen on every 401 and reported as a warning, since the contract does not name the header (RFC 9110, 11.6.1 makes it a MUST)' },
};

/** Legal variants the gate fails today, each with the failing check: none. */
const falseAlarms: Record<string, string> = {};

describeCatalogue({ batch: 'Third', regressions: regressions3, legalVariants: legalVariants3, survivors, falseAlarms });

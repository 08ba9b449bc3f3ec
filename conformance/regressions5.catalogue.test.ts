// The fifth catalogue (testing/regressions5.ts) against the deploy gate (testing/describeCatalogue.ts):
// its survivors, each with why a gate run lets it through, and its false alarms (none). The first
// run's figures (25 of 41 killed, 0 of 14 false alarms) are recorded in docs/suite-power.md,
// "Fifth batch, first run".
import { describeCatalogue, type Why } from './testing/describeCatalogue.ts';
import { legalVariants5, regressions5 } from './testing/regressions5.ts';

const survivors: Record<string, { why: Why; detail: string }> = {
  'Expires: 0 added by the no-cache middleware': { why: 'warned', detail: 'http.expires-age: an invalid Expires is a warning, as RFC 9111, 5.3 has recipients read "0" as a time in the past' },
  'daily quota never enforced (the day counter expires after a minute)': { why: 'not sent', detail: 'a run sends a few hundred requests, far under a day\'s quota' },
  'OPTIONS answered by the CORS middleware before the rate limiter adds its headers': { why: 'not judged', detail: 'a CORS preflight is the browser\'s, not a request to an operation: the rate-limit headers are not required on it' },
  'Access-Control-Allow-Origin sent by both the gateway and the app': { why: 'warned', detail: 'http.cors-origin: CORS fields are warnings, since the contract shows no CORS' },
  'Date header left off by the serverless adapter': { why: 'warned', detail: 'http.date: a missing Date is a warning, a MUST of HTTP the contract does not restate (as 401 without WWW-Authenticate)' },
};

/** Legal variants the gate fails, each with the failing check: none. */
const falseAlarms: Record<string, string> = {};

describeCatalogue({ batch: 'Fifth', regressions: regressions5, legalVariants: legalVariants5, survivors, falseAlarms });

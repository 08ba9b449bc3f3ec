// The fourth catalogue (testing/regressions4.ts) against the deploy gate (testing/describeCatalogue.ts):
// its survivors, each with why a gate run lets it through, and its false alarms (none). The first
// run's figures (25 of 42 killed, 0 of 12 false alarms) are recorded in docs/suite-power.md.
import { describeCatalogue, type Why } from './testing/describeCatalogue.ts';
import { legalVariants4, regressions4 } from './testing/regressions4.ts';

const survivors: Record<string, { why: Why; detail: string }> = {
  'X-RateLimit-Limit overwritten by the daily limiter': { why: 'not judged', detail: 'the Pro key reads X-RateLimit-Limit 10000 beside Remaining 299 on its first request and is refused after 300; the Limit is not compared with the plan nor with the Remaining it is refused at' },
  'Enterprise keys answered X-RateLimit-Limit: -1': { why: 'not sent', detail: 'the gate sends only demo-pro and demo-free, never an Enterprise key' },
  'Business keys fall back to the Free plan (plan name case mismatch)': { why: 'not sent', detail: 'the gate sends only demo-pro and demo-free, never a Business key' },
  'sliding-window limiter behind fixed-window headers': { why: 'not judged', detail: 'the probe retries once the last 429\'s Retry-After (30 s) has passed and is refused again, but with Retry-After 60, longer than the one it waited out: the temporary ban the contract allows after the repeated requests that followed the 429 would look the same' },
  'window end inclusive: a request at the exact reset second counts in the old window': { why: 'not sent', detail: 'the fault refuses only a request at the very millisecond X-RateLimit-Reset names; the probe retries half a second after the last 429\'s Retry-After, as a client whose clock ticks in whole seconds may' },
  'categoryId spelled 1.0 or 1e3 refused by Go\'s int64 decoder': { why: 'not sent', detail: 'the run\'s categoryIds are plain integer literals (and 1.5, past int64); none is a whole number spelled with a fraction or an exponent' },
  '201 built from the entity before the database default is applied': { why: 'not judged', detail: 'the run creates pets without status (a 201 without status) and reads them back with status available; status is optional, and the 201 is not held to the pet as later read' },
  'HEAD /pets/{petId} answered without Deprecation, Sunset and Link': { why: 'warned', detail: 'http-semantics warning: HEAD /pets/75 lacks deprecation, sunset, link, which GET of the same URL sent (RFC 9110, 9.3.2 SHOULD)' },
  'Deprecation: true from a pinned old middleware release': { why: 'warned', detail: 'deprecation warning: "Deprecation: true, a form of the drafts before RFC 9745"' },
};

/** Legal variants the gate fails, each with the failing check: none on the first run. */
const falseAlarms: Record<string, string> = {};

describeCatalogue({ batch: 'Fourth', regressions: regressions4, legalVariants: legalVariants4, survivors, falseAlarms });

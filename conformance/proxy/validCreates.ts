// What the suite's generated traffic holds its own valid creates to, for the creates the proxy saw:
// a NewPet the contract says must be created is not refused. The status-codes check cannot tell,
// since 400 is a status createPet documents; it documents it only for a body "missing required
// fields or [with] invalid values".
import { requestLine, type Check } from '../check.ts';

export const validCreates: Check = {
  id: 'valid-creates',
  title: 'A valid NewPet is created',
  severity: 'critical',
  description:
    'A create the proxy saw with nothing a deployment may refuse (a JSON NewPet of name, categoryId and status only, ' +
    'a name of 1 to 40 printable characters, a categoryId the deployment\'s own pets were seen with, the key it accepts) ' +
    'is answered 2xx, not refused with a 4xx: "400 | Error. The body is missing required fields or has invalid values."',
  operations: ['createPet'],
  phase: 'passive',
  async run(ctx, report) {
    for (const exchange of ctx.exchanges) {
      if (exchange.operationId !== 'createPet' || exchange.intent !== 'valid') continue;
      const { status } = exchange.response;
      // A 5xx is the status-codes check's; 401, 403 and 429 say the deployment did not judge the body (inconclusive).
      if (status >= 500) continue;
      report.expect(status < 400, exchange, `${requestLine(exchange)} sent the body ${exchange.request.body ?? ''} and was answered ${status}. Nothing in it is missing or invalid: its name is 1 to 40 printable characters, its categoryId one the deployment's own pets have, and it has no field beyond NewPet's; the contract refuses a body with 400 only when "the body is missing required fields or has invalid values".`, `refused ${status}`);
    }
  },
};

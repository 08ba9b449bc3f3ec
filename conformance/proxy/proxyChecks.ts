// The checks that judge the traffic the proxy saw: the suite's passive checks, which report the
// model's judgements, and one of the proxy's own over the same judgements.
import type { Check } from '../check.ts';
import { passiveCheck, passiveChecks } from '../checks/passiveChecks.ts';

/**
 * What the suite's generated traffic holds its own valid creates to, for the creates the proxy saw:
 * a NewPet the contract says must be created is not refused. status-codes cannot tell, since 400 is
 * a status createPet documents; it documents it only for a body "missing required fields or [with]
 * invalid values".
 */
export const validCreates = passiveCheck({
  id: 'valid-creates',
  operations: ['createPet'],
  title: 'A valid NewPet is created',
  severity: 'critical',
  description:
    'A create the proxy saw with nothing a deployment may refuse (a JSON NewPet of name, categoryId and status only, ' +
    'a name of 1 to 40 printable characters, a categoryId the deployment\'s own pets were seen with, the key it accepts) ' +
    'is answered 2xx, not refused with a 4xx: "400 | Error. The body is missing required fields or has invalid values."',
});

const [statusCodes, ...rest] = passiveChecks;
export const proxyChecks: readonly Check[] = [statusCodes!, validCreates, ...rest];

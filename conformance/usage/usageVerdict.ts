// What `--usage` adds to a run's report: for each client of the usage file, whether the deployment
// keeps the contract for what that client uses (judgeUsage.ts).
import type { UsageFile } from '../../common/usage/clientUsage.ts';

export interface UsedFailure {
  rule: string;
  /** The check that reported it. */
  check: string;
  operationId: string;
  /** The part of the contract it is about, in words. */
  place: string;
  /** The finding's message. */
  message: string;
}

export interface ClientUsageVerdict {
  client: string;
  label: string;
  /**
   * `safe`: no failure of the run reaches the client's usage, and the run judged every operation
   * it uses; `broken`: a failure does (`broken` names each); `not-judged`: the run could not
   * judge the deployment, or did not judge an operation the client uses.
   */
  verdict: 'safe' | 'broken' | 'not-judged';
  broken: UsedFailure[];
  /** Failures of the run the client's usage does not reach. */
  unused: UsedFailure[];
  /** Operations the client uses that no check of the run judged. */
  unjudged: string[];
  /** One sentence, the reports' first. */
  headline: string;
}

export interface UsageReport {
  source: UsageFile['source'];
  clients: ClientUsageVerdict[];
}


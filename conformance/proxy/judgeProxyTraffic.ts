// The proxy's judge over a finished record of exchanges, all at once: what `ProxyJudge` gives for
// the same exchanges handed over one by one as they end (see proxyJudge.ts).
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import type { SpecValidators } from '../specValidators.ts';
import { ProxyJudge, type ProxyVerdict } from './proxyJudge.ts';
import type { ProxyRecord } from './proxyRecord.ts';

export { proxyChecks } from './proxyChecks.ts';
export type { LiveReport, ProxyFinding, ProxyVerdict } from './proxyJudge.ts';

export interface ProxyJudgeOptions {
  spec: LoadedSpec;
  validators?: SpecValidators;
  /** The deployment's base URL (`https://staging.example/v1`): requests outside its path are forwarded, not judged. */
  target: string;
  /** Others use the keys beside the proxy: rate accounting judges only what still holds. */
  sharedKey: boolean;
  startedAt: number;
  now: number;
  runId?: string;
  /** Exchanges forwarded but not kept for judging (past the proxy's memory budget): counted, not judged. */
  unkept?: number;
  /** Told of each failure with the seq of the record it is on. */
  onFailure?: (seq: number, rule: string) => void;
}

export async function judgeProxyTraffic(records: readonly ProxyRecord[], options: ProxyJudgeOptions): Promise<ProxyVerdict> {
  const judge = new ProxyJudge(options);
  const ordered = [...records].sort((a, b) => a.seq - b.seq);
  for (const record of ordered) judge.ended(record);
  // The unkept ones came after those kept: numbered past them.
  const last = ordered.at(-1)?.seq ?? 0;
  for (let i = 1; i <= (options.unkept ?? 0); i++) judge.ended({ seq: last + i, sentAt: options.now, method: 'GET', url: '/', requestHeaders: {} }, true);
  return judge.verdict(options.now);
}

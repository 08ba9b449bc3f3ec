// The proxy's judge over a finished record of exchanges, all at once: what `ProxyJudge` gives for
// the same exchanges handed over one by one as they end (see proxyJudge.ts).
import { ProxyJudge, type ProxyJudgeSettings, type ProxyVerdict } from './proxyJudge.ts';
import type { ProxyRecord } from './proxyRecord.ts';

export { proxyChecks } from './proxyChecks.ts';
export type { LiveReport, ProxyFinding, ProxyVerdict } from './proxyJudge.ts';

/** The judge's settings (proxyJudge.ts), and when the record ends. */
export interface ProxyJudgeOptions extends ProxyJudgeSettings {
  now: number;
  /** Exchanges forwarded but not kept for judging (past the proxy's memory budget): counted, not judged. */
  unkept?: number;
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

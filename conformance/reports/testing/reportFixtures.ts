// Reports the writer tests share: a failing run against `severalFaults`, and a run that could not judge.
import { cannotRunReport, type RunReport } from '../../runReport.ts';
import { runInProcess } from './inProcessRun.ts';
import { severalFaults } from './severalFaults.ts';

export function failingRun(): Promise<RunReport> {
  return runInProcess({ transform: severalFaults });
}

/** A refused key, as the runner reports it: the reason and the one exchange that showed it. */
export function refusedKeyRun(): Promise<RunReport> {
  return runInProcess({ apiKey: 'expired-key-0000' });
}

export const notRunAtAll = (): RunReport => cannotRunReport({ reason: 'no API key. Give --api-key or set PETS_API_KEY.', baseUrl: 'https://staging.example.com/v1' });

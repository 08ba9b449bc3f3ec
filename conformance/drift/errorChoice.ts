import { errorCodeOf } from '../model/errorBody.ts';

/** An Error answer as a situation's choice: its status and code as a profile writes them (`errors.<name>`), and in a report's words. */
export function errorChoice(status: number, body: unknown): { value: { status: number; code?: string }; shown: string } {
  const code = errorCodeOf(body);
  return { value: { status, ...(code !== undefined ? { code } : {}) }, shown: `${status}${code !== undefined ? ` ${code}` : ' without an Error code'}` };
}

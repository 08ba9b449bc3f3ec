// The generated traffic: seeded sequences of commands, each run against the deployment and judged
// by the model; a sequence that breaks a rule is shrunk by fast-check to the shortest that still
// breaks it, and kept as a curl script. The same seed sends the same requests.
import fc from 'fast-check';
import type { Check, CheckContext, PlanNotes } from '../check.ts';
import { creatorsOf, curlScript } from './curlScript.ts';
import type { ApiRequest, Exchange } from '../http/exchange.ts';
import { plainSpelling, sequenceArbitrary, type Command } from './commands.ts';
import { sendCommand, type TrafficState } from './sendCommand.ts';
import { sweep } from './sweep.ts';
import { relationPass } from './relations.ts';
import { judgeGeneratedInput } from '../model/judgeGeneratedInput.ts';

/** Sequences a depth runs. */
export function sequenceCount(depth: CheckContext['options']['depth']): number {
  if (typeof depth === 'number') return depth;
  return depth === 'full' ? 40 : 12;
}

/** Commands in a sequence, at most. */
const maxCommands = 8;
/** Runs of a failing sequence fast-check may make while shrinking it. */
const shrinkRuns = 24;
/** Failing sequences shrunk in one run; later ones are judged, not shrunk. */
const shrunkSequences = 3;

/**
 * The key's requests the generated traffic may spend: against a small quota (the Free plan's 60 a
 * minute) half a window, so the run waits at most once more; else a budget by depth.
 */
function requestBudget(ctx: CheckContext): number {
  const { limit } = ctx.keyQuota();
  const byDepth = sequenceCount(ctx.options.depth) * 14;
  return limit !== undefined && limit < 200 ? Math.min(byDepth, Math.floor(limit / 2)) : byDepth;
}

/**
 * Whether more generated requests would make the run wait for the key's next window. Against a
 * quota of 200 a minute or more a default run fits one window, and shrinking or more sequences are
 * not worth a minute's wait (a CI gate that fails should fail fast); against a smaller one the run
 * waits anyway, within --max-duration.
 */
function windowRunningLow(ctx: CheckContext): boolean {
  const { limit, remaining } = ctx.keyQuota();
  if (limit === undefined || remaining === undefined || limit < 200) return false;
  return remaining < Math.max(30, Math.ceil(limit / 10));
}

/**
 * The failures the model found in the exchanges after `first`, by rule, with the earlier exchanges
 * they rest on. Judgements are appended in exchange order, so only those from `from` on are read.
 */
function brokenRules(ctx: CheckContext, first: number, from: number): { rules: Set<string>; related: Set<number> } {
  const rules = new Set<string>();
  const related = new Set<number>();
  const { judgements } = ctx.model();
  for (let i = from; i < judgements.length; i++) {
    const j = judgements[i]!;
    if (j.outcome !== 'failure' || j.exchange === undefined || j.exchange.seq <= first) continue;
    rules.add(j.rule);
    for (const seq of j.related ?? []) if (seq <= first) related.add(seq);
  }
  return { rules, related };
}

/** How a failing sequence is shrunk: at most `runs` runs, and only for the rules `rules` accepts (all by default). */
interface Shrinking {
  runs: number;
  rules?: (rule: string) => boolean;
}

/**
 * A relation is shrunk for what it varies: an equivalence rule, or a create at once given an id
 * already taken or left uncounted. A rule every answer breaks (a wrong media type) says nothing of
 * the form, and sending the relation again to shrink it would only spend the window.
 */
const relationShrinking: Shrinking = { runs: 12, rules: (rule) => rule.startsWith('equivalent.') || rule === 'data.new-id' || rule === 'rate.concurrent-counted' };

/** What the generated traffic has spent, may spend, and has shrunk so far. */
interface Tally {
  spent: number;
  budget: number;
  shrunk: number;
}

/**
 * Runs one drawn sequence of commands against the deployment as a fast-check property: judged by
 * the model, and when a rule breaks, shrunk (within the budgets) to the shortest sequence that still
 * breaks it, kept as a curl script. `label` prefixes each request's case.
 */
async function checkShrunk(ctx: CheckContext, state: TrafficState, tally: Tally, arbitrary: fc.Arbitrary<Command[]>, seed: number, label: string, shrinking: Shrinking = { runs: shrinkRuns }): Promise<boolean> {
  const answeredBefore = ctx.exchanges.length;
  let runs = 0;
  let target: Set<string> | undefined;
  let smallest: { commands: Command[]; exchanges: Exchange[]; context: Exchange[] } | undefined;
  let original = 0;
  const property = fc.asyncProperty(arbitrary, async (commands) => {
    runs++;
    // Past the first run, fast-check is shrinking: stop once the budgets are spent.
    if (runs > 1 && (runs > shrinking.runs || tally.shrunk >= shrunkSequences || tally.spent >= tally.budget * 1.5 || ctx.timeLeftMs() < 10_000 || windowRunningLow(ctx))) return true;
    const first = ctx.exchanges.length;
    const seqBefore = ctx.exchanges[first - 1]?.seq ?? 0;
    const judgedBefore = ctx.model().judgements.length;
    for (const [position, command] of commands.entries()) {
      await sendCommand(ctx, state, command, `${label}/${position + 1}`, async (request: ApiRequest) => {
        tally.spent++;
        // Past the first run, fast-check is shrinking: the requests are sent again.
        return ctx.send({ ...request, ...(runs > 1 ? { replay: true } : {}) });
      });
    }
    const mine = ctx.exchanges.slice(first);
    const { rules: found, related } = brokenRules(ctx, seqBefore, judgedBefore);
    const broken = new Set([...found].filter((rule) => shrinking.rules?.(rule) ?? true));
    for (const e of mine) if (e.response.status >= 500 && (e.intent === 'edge' || e.intent === 'invalid')) broken.add('input.refused-as-4xx');
    if (runs === 1) {
      if (broken.size === 0) return true;
      target = broken;
      original = mine.length;
    }
    const reproduces = target !== undefined && [...target].some((r) => broken.has(r));
    // The script sends first what the verdict rests on and the creates of the pets it reads by id.
    const creators = new Set(creatorsOf(mine, ctx.exchanges).map((e) => e.seq));
    if (reproduces && (!smallest || mine.length <= smallest.exchanges.length)) smallest = { commands, exchanges: mine, context: ctx.exchanges.filter((e) => related.has(e.seq) || creators.has(e.seq)) };
    return !reproduces;
  });
  const result = await fc.check(property, { seed, numRuns: 1 });
  // The property only returns: an error thrown is the suite's own bug, not the deployment's.
  if (result.errorInstance !== null && result.errorInstance !== undefined && !(result.errorInstance instanceof Error && result.errorInstance.message.startsWith('Property failed by returning false'))) throw result.errorInstance;
  if (smallest && target) {
    tally.shrunk++;
    ctx.reproduce({
      rules: [...target],
      commands: smallest.commands,
      requests: { original, shrunk: smallest.exchanges.length },
      exchanges: smallest.exchanges.map((e) => e.seq),
      curl: curlScript(smallest.exchanges, smallest.context),
    });
  }
  // A sequence none of whose requests was answered judged nothing.
  return ctx.exchanges.length > answeredBefore;
}

export const generatedTraffic: Check = {
  id: 'generated-traffic',
  title: 'Generated sequences: every operation, every spelling, edge values, bursts',
  severity: 'high',
  description:
    'Seeded, property-based sequences of requests (fast-check): creates with names that break careless code (outside the BMP, markup, quotes, backslashes, long), ' +
    'lists with any limit and status in any order and spelling, reads of known ids and their neighbours, undocumented methods and paths, keyless replays on the same ' +
    'connection, parallel bursts, and near misses of every valid value. The model judges every answer; this check judges that valid values are served and forbidden values ' +
    'refused with a 4xx (status-codes, that none gets a 5xx). A failing sequence is shrunk and printed as a curl script.',
  operations: ['listPets', 'createPet', 'getPet', 'unlisted'],
  phase: 'active',
  async send(ctx, notes: PlanNotes) {
    const arbitrary = sequenceArbitrary({ readOnly: ctx.options.readOnly, key2: ctx.apiKey2 !== undefined }, maxCommands);
    const state: TrafficState = { created: [], bursts: 0, groups: 0 };
    const tally: Tally = { spent: 0, budget: requestBudget(ctx), shrunk: 0 };
    const count = sequenceCount(ctx.options.depth);
    // The relations first, each dimension once whatever the seed: the same request in other forms,
    // two reads in both orders, creates at once. On a small quota the run's time budget may end
    // within the sweep after them, never before every dimension was tried. Their requests spend the
    // key, not the sequences' budget.
    const relationTally: Tally = { spent: 0, budget: tally.budget, shrunk: 0 };
    for (const [i, relation] of relationPass({ readOnly: ctx.options.readOnly, otherAddress: (await ctx.otherSourceAddress()) !== undefined }).entries()) {
      if (ctx.timeLeftMs() < 5_000) break;
      await checkShrunk(ctx, state, relationTally, relation.map((command): Command[] => [command]), ctx.options.seed * 7919 - 1 - i, `generated/relations/${i + 1}`, relationShrinking);
    }
    tally.shrunk += relationTally.shrunk;
    await sweep(ctx, (request) => ctx.send(request), state.created);
    if (ctx.apiKey2 !== undefined) {
      // Every operation with the second key too, among requests with the first: each key's window is its own.
      const both: Command[] = [
        { kind: 'list', limit: 3, spelling: plainSpelling, key: 'key2' },
        ...(ctx.options.readOnly ? [] : [{ kind: 'create', name: 'Second key', category: 0, spelling: plainSpelling, key: 'key2', readBack: true } as Command]),
        { kind: 'get', pick: 0, near: 'same', variant: 0, spelling: plainSpelling, key: 'key2' },
        { kind: 'list', limit: 2, spelling: plainSpelling, key: 'key' },
        { kind: 'list', limit: 1, spelling: plainSpelling, key: 'key2' },
      ];
      for (const [position, command] of both.entries()) {
        await sendCommand(ctx, state, command, `generated/second-key/${position + 1}`, (request) => ctx.send(request));
      }
    }
    let ran = 0;
    let stopped: string | undefined;
    for (let index = 0; index < count; index++) {
      if (tally.spent >= tally.budget) stopped = `the key's budget for generated requests (${tally.budget}${tally.budget < sequenceCount(ctx.options.depth) * 14 ? `, half a window of its quota of ${ctx.keyQuota().limit} a minute` : ''}) was spent`;
      else if (ctx.timeLeftMs() < 5_000) stopped = 'the run\'s time budget (--max-duration) ran out';
      // The default depth fits the window; a depth asked for explicitly may wait for the next one,
      // and so may the first sequence that sends: a run that ran none judged none (no pass, see unchecked.ts).
      else if (ran > 0 && ctx.options.depth === 'quick' && windowRunningLow(ctx)) stopped = 'the key\'s window ran low, and more would wait for the next window';
      if (stopped !== undefined) {
        notes.inconclusive('listPets', `${stopped} after ${index} of ${count} sequences`);
        break;
      }
      if (await checkShrunk(ctx, state, tally, arbitrary, ctx.options.seed * 7919 + index, `generated/${index + 1}`)) ran++;
    }
    notes.ran('sequences', ran, count, stopped);
  },
  judge: (input) => judgeGeneratedInput(input.exchanges, input),
};

// The traffic the host parity suite (parity.hosts.test.ts) sends through every host, and the
// clients that send it: polite and impolite, one request at a time and several at once. It drives
// the mock's clock through the control API, as a client's waits, so nothing waits in real time.
// What each host answers is kept as the client reads it; the reports as the mock writes them.

/** A request as the script sends it: a path on the host's origin (`/v1/...` or `/__mock/...`). */
export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** An answer as a page on another origin reads it: its status (or that the fetch failed), the headers it may read, its body's text. */
export interface Seen {
  status: number | 'network error';
  headers: Record<string, string | null>;
  body: string;
}

/**
 * Sends `first` alone when given (a move of the mock's clock) and, once it is answered, `requests`
 * at once (all handed over before any answer is awaited); gives the answers in the order sent. One
 * round trip to a page for both.
 */
export type Send = (requests: readonly Sent[], first?: Sent) => Promise<Seen[]>;

/** What a host answered the whole script, step by step, and the client reports at its end, as text. */
export interface Trace {
  steps: { name: string; answers: Seen[] }[];
  reports: Record<string, string>;
}

/**
 * The headers compared: those the contract names, Location and the type, and Preference-Applied.
 * A page on another origin reads each only because the answer exposes it
 * (Access-Control-Expose-Headers), so CORS is held too.
 */
export const comparedHeaders = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'www-authenticate', 'retry-after', 'location', 'deprecation', 'sunset', 'link', 'preference-applied'];

/** The instant every host's clock is frozen at: half past twelve, far from a minute or day boundary. */
export const parityStart = Date.UTC(2026, 5, 1, 12, 30, 0);

/** The clients, each under a key of its own with a small limit (5 a minute) where it meets the limit, and whether the mock must find it polite. */
export const parityClients = {
  'seq-polite': { polite: true, perMinute: 5 },
  'burst-polite': { polite: true, perMinute: 5 },
  'ra-polite': { polite: true },
  'jitter-polite': { polite: true },
  'seq-rude': { polite: false, perMinute: 5 },
  'burst-rude': { polite: false },
  'fixed-rude': { polite: false },
  'quota-rude': { polite: false, perMinute: 5 },
} as const;
export type ParityClient = keyof typeof parityClients;

const json = { 'content-type': 'application/json' };
const as = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
const list = (key: string): Sent => ({ method: 'GET', path: '/v1/pets?limit=2', headers: as(key) });
/** Answers of requests sent at once, in one order whatever order the host answered them in: which of them got the window's last request is the host's to decide. */
const unordered = (answers: Seen[]) => answers.map((a) => [JSON.stringify(a), a] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, a]) => a);
const retryAfterMs = (a: Seen) => Number(a.headers['retry-after']) * 1000;

/** The mock's time as the script moves it, and what each step was answered. */
class Session {
  now = parityStart;
  readonly steps: Trace['steps'] = [];
  /** A move of the clock not sent yet, from the instant it starts at: it goes first in the next volley's round trip. */
  #move: { from: number; name: string; request: Sent } | undefined;
  constructor(private readonly send: Send) {}

  /** Sends `requests` at once; keeps their answers as a set when requests of one key may have taken each other's answers. */
  async volley(name: string, requests: readonly Sent[], { asSet = true } = {}): Promise<Seen[]> {
    return (await this.together([{ name, requests, asSet }]))[0]!;
  }

  /** Sends the requests of every group at once; each group is a step of its own. */
  async together(groups: readonly { name: string; requests: readonly Sent[]; asSet?: boolean }[]): Promise<Seen[][]> {
    const move = this.#move;
    this.#move = undefined;
    const answers = await this.send(groups.flatMap((g) => g.requests), move?.request);
    if (move) this.steps.push({ name: move.name, answers: [answers.shift()!] });
    return groups.map(({ name, requests, asSet = true }) => {
      const mine = answers.splice(0, requests.length);
      this.steps.push({ name, answers: asSet && mine.length > 1 ? unordered(mine) : mine });
      return mine;
    });
  }

  async one(name: string, request: Sent): Promise<Seen> {
    return (await this.volley(name, [request]))[0]!;
  }

  control(name: string, method: string, path: string, body?: object): Promise<Seen> {
    return this.one(name, controlRequest(method, path, body));
  }

  /** Moves the mock's clock to `at`, as a client waiting until then, before the next request. */
  waitUntil(at: number): void {
    if (at <= this.now) return;
    const from = this.#move?.from ?? this.now;
    this.#move = { from, name: `wait ${at - from} ms`, request: controlRequest('POST', '/clock', { advanceSeconds: (at - from) / 1000 }) };
    this.now = at;
  }
}

const controlRequest = (method: string, path: string, body?: object): Sent => ({ method, path: `/__mock${path}`, headers: body ? json : {}, ...(body ? { body: JSON.stringify(body) } : {}) });

/** What a client does with the mock: send requests at once and read their answers, wait on the mock's clock. */
interface ClientIO {
  now(): number;
  send(requests: readonly Sent[]): Promise<Seen[]>;
  waitUntil(at: number): Promise<void>;
}
type Client = (io: ClientIO, key: string) => Promise<void>;

/**
 * Runs the clients side by side on the mock's clock: at each instant, what every client sends then
 * goes in one volley; when none has more to send, the clock moves to the next instant one waits
 * for. Clients await nothing but `io`, so one turn of the event loop lets each run to its next call.
 */
async function runSideBySide(s: Session, clients: Record<string, Client>): Promise<void> {
  let sending: { key: string; requests: readonly Sent[]; answered(answers: Seen[]): void }[] = [];
  let waiting: { at: number; wake(): void }[] = [];
  const running = Promise.all(Object.entries(clients).map(([key, client]) => client({
    now: () => s.now,
    send: (requests) => new Promise((answered) => sending.push({ key, requests, answered })),
    waitUntil: (at) => {
      // A header the client read was missing or not a number: say so rather than wait forever.
      if (!Number.isFinite(at)) return Promise.reject(new Error(`${key} was told to wait until ${at}: an answer lacked Retry-After or X-RateLimit-Reset.`));
      return at <= s.now ? Promise.resolve() : new Promise((wake) => waiting.push({ at, wake }));
    },
  }, key)));
  // Awaited at the end; a client that failed before then is not an unhandled rejection meanwhile.
  running.catch(() => undefined);
  for (;;) {
    await new Promise((turn) => setImmediate(turn));
    if (sending.length > 0) {
      const now = sending;
      sending = [];
      // One step a key: which of a key's requests sent at once took which answer is the host's to decide.
      const keys = [...new Set(now.map(({ key }) => key))];
      const groups = keys.map((key) => now.filter((sent) => sent.key === key));
      const answers = await s.together(groups.map((group) => {
        const requests = group.flatMap((sent) => sent.requests);
        return { name: `${group[0]!.key}: ${requests.length} at ${s.now - parityStart} ms`, requests };
      }));
      groups.forEach((group, k) => {
        const mine = answers[k]!;
        for (const { requests, answered } of group) answered(mine.splice(0, requests.length));
      });
      continue;
    }
    if (waiting.length === 0) break;
    const at = Math.min(...waiting.map((w) => w.at));
    s.waitUntil(at);
    const woken = waiting.filter((w) => w.at === at);
    waiting = waiting.filter((w) => w.at !== at);
    for (const { wake } of woken) wake();
  }
  await running;
}

/** The whole script: the contract's answers one request at a time, then the clients side by side, then the reports. */
export async function runParityTraffic(send: Send): Promise<Trace> {
  const s = new Session(send);
  await s.control('reset', 'POST', '/reset');
  await s.control('freeze the clock', 'POST', '/clock', { freeze: true, at: parityStart });
  const keys = Object.entries(parityClients) as [ParityClient, { perMinute?: number }][];
  await s.volley('the clients\' keys', keys.map(([key, { perMinute }]) => controlRequest('PUT', `/keys/${key}`, { plan: 'pro', ...(perMinute ? { perMinute } : {}) })), { asSet: false });
  await contractBasics(s);
  // Fault rules one at a time: their ids follow the order they came in.
  for (const [key, rule] of Object.entries(faultRules)) await s.control(`fault rule for ${key}`, 'POST', '/faults', { key, method: 'GET', ...rule });
  s.waitUntil(Math.ceil((s.now + 1) / 60_000) * 60_000);
  await runSideBySide(s, clients);
  await afterTheRemoval(s);
  const reportKeys = ['all', ...Object.keys(parityClients), 'demo-pro'];
  const reports = await s.volley('the client reports', reportKeys.map((key) => controlRequest('GET', `/client-report${key === 'all' ? '' : `?key=${key}`}`)), { asSet: false });
  return { steps: s.steps, reports: Object.fromEntries(reportKeys.map((key, k) => [key, reports[k]!.body])) };
}

/** One request at a time: reads, writes, refusals, Prefer, a fault rule, a POST sent again after its 503. */
async function contractBasics(s: Session): Promise<void> {
  const pro = (extra: Record<string, string> = {}) => as('demo-pro', extra);
  await s.one('list', { method: 'GET', path: '/v1/pets?limit=5&status=available', headers: pro() });
  const created = await s.one('create', { method: 'POST', path: '/v1/pets', headers: pro(json), body: JSON.stringify({ name: 'Parity', categoryId: 3, status: 'pending' }) });
  await s.one('read back (deprecated)', { method: 'GET', path: `/v1/pets/${(JSON.parse(created.body) as { id: number }).id}`, headers: pro() });
  // An int64 categoryId past 2^53 - 1, kept with its digits by every host (JSON.parse would round it).
  await s.one('create with categoryId 2^63 - 1', { method: 'POST', path: '/v1/pets', headers: pro(json), body: '{"name":"Big","categoryId":9223372036854775807}' });
  await s.one('list the int64 categoryId', { method: 'GET', path: '/v1/pets?limit=1', headers: pro() });
  await s.one('bad body', { method: 'POST', path: '/v1/pets', headers: pro(json), body: JSON.stringify({ name: 'Parity', categoryId: '3' }) });
  await s.one('no key', { method: 'GET', path: '/v1/pets', headers: {} });
  await s.one('unknown route', { method: 'GET', path: '/v1/owners', headers: pro() });
  await s.one('wrong method', { method: 'DELETE', path: '/v1/pets/1', headers: pro() });
  await s.one('Prefer: code=500', { method: 'GET', path: '/v1/pets', headers: pro({ prefer: 'code=500' }) });
  await s.control('fault rule: createPet 503 once', 'POST', '/faults', { operationId: 'createPet', status: 503, times: 1 });
  const again = { method: 'POST', path: '/v1/pets', headers: pro(json), body: JSON.stringify({ name: 'Again', categoryId: 1 }) };
  await s.one('create meets the fault', again);
  s.waitUntil(s.now + 2000);
  await s.one('the same create, 2 s later', again);
  await s.one('list after creating', { method: 'GET', path: '/v1/pets?limit=2', headers: pro() });
}

/**
 * The deprecated operation's end: the contract removes getPet on 5 December 2030, so past that day
 * on the mock's clock every host answers it as gone, and the client report counts the call.
 */
async function afterTheRemoval(s: Session): Promise<void> {
  const removal = Date.UTC(2030, 11, 5);
  await s.control('the clock past the removal', 'POST', '/clock', { freeze: true, at: removal + 12.5 * 3_600_000 });
  s.now = removal + 12.5 * 3_600_000;
  await s.one('getPet after the removal', { method: 'GET', path: '/v1/pets/1', headers: as('demo-pro') });
}

/** The fault rules the clients meet, each on its client's key (GET only). */
const faultRules: Partial<Record<ParityClient, object>> = {
  'seq-polite': { status: 429, retryAfter: 3, times: 1 },
  'ra-polite': { status: 429, retryAfter: 2, times: 3 },
  'jitter-polite': { status: 503, times: 6 },
  'burst-rude': { status: 429, retryAfter: 2, times: 6 },
  'fixed-rude': { status: 503, times: 9 },
};

const clients: Record<ParityClient, Client> = {
  /** One request a second; holds once Remaining is 0 until Reset; waits out a 429's Retry-After (a fault rule's, 3 s). */
  async 'seq-polite'(io, key) {
    for (let i = 0; i < 7; i++) {
      const [a] = await io.send([list(key)]);
      let resumeAt = io.now() + 1000;
      if (a!.status === 429) resumeAt = Math.max(resumeAt, io.now() + retryAfterMs(a!));
      if (a!.headers['x-ratelimit-remaining'] === '0') resumeAt = Math.max(resumeAt, Number(a!.headers['x-ratelimit-reset']) * 1000);
      await io.waitUntil(resumeAt);
    }
  },
  /** Seven requests at once, twice, past its limit of 5: waits for Reset and Retry-After between. */
  async 'burst-polite'(io, key) {
    for (let round = 0; round < 2; round++) {
      const answers = await io.send(Array.from({ length: 7 }, () => list(key)));
      let resumeAt = io.now();
      for (const a of answers) {
        if (a.status === 429) resumeAt = Math.max(resumeAt, io.now() + retryAfterMs(a));
        if (a.headers['x-ratelimit-remaining'] === '0') resumeAt = Math.max(resumeAt, Number(a.headers['x-ratelimit-reset']) * 1000);
      }
      await io.waitUntil(resumeAt);
    }
  },
  /** The same GET three times at once, all 429 (a fault rule's, Retry-After 2): each waits its Retry-After and is sent again. */
  async 'ra-polite'(io, key) {
    const answers = await io.send([list(key), list(key), list(key)]);
    await io.waitUntil(io.now() + Math.max(...answers.map(retryAfterMs)));
    await io.send([list(key), list(key), list(key)]);
  },
  /** The same GET three times at once, through six 503s: each try backs off on its own (its own draws of jitter), up to three tries. */
  async 'jitter-polite'(io, key) {
    // Each try's waits, as full jitter might draw them: at every instant all its requests fail or all pass.
    const waits = [[300, 900], [700, 1900], [150, 1300]];
    await Promise.all(waits.map(async (draws) => {
      for (const wait of [...draws, undefined]) {
        const [a] = await io.send([list(key)]);
        if (a!.status !== 503 || wait === undefined) return;
        await io.waitUntil(io.now() + wait);
      }
    }));
  },
  /** One request every half second, whatever the answers say: past its limit, ignoring Remaining and Retry-After. */
  async 'seq-rude'(io, key) {
    for (let i = 0; i < 8; i++) {
      await io.send([list(key)]);
      await io.waitUntil(io.now() + 500);
    }
  },
  /** The same GET three times at once; on 429 (a fault rule's, Retry-After 2) sends the three again at once half a second later. */
  async 'burst-rude'(io, key) {
    for (let round = 0; round < 3; round++) {
      const answers = await io.send([list(key), list(key), list(key)]);
      if (!answers.some((a) => a.status === 429)) return;
      await io.waitUntil(io.now() + 500);
    }
  },
  /** The same GET three times at once; after 503s sends the failed ones again together every second. */
  async 'fixed-rude'(io, key) {
    let failed = 3;
    while (failed > 0) {
      const answers = await io.send(Array.from({ length: failed }, () => list(key)));
      failed = answers.filter((a) => a.status === 503).length;
      await io.waitUntil(io.now() + 1000);
    }
  },
  /** Three at once every second, past its limit of 5, reading nothing. */
  async 'quota-rude'(io, key) {
    for (let round = 0; round < 4; round++) {
      await io.send([list(key), list(key), list(key)]);
      await io.waitUntil(io.now() + 1000);
    }
  },
};

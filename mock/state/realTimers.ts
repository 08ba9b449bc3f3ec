// A frontend test fakes the global timers and Date before it renders (vi.useFakeTimers(),
// jest.useFakeTimers(), sinon.useFakeTimers()), and then drives them itself. The mock must neither
// stop answering nor follow that time: its clock is the one the test moves through the control API.
// So it keeps its own references to the real timers and the real Date.now, taken when this module
// loads. All three runners fake through @sinonjs/fake-timers, which marks each fake with its `clock`
// and keeps the original as `clock._<name>`: a module first loaded under fake timers (a dynamic
// import) still finds the real ones there.

type Faked = { clock?: Record<string, unknown> } | undefined;

function original<T>(name: string, current: T): T {
  const saved = (current as Faked)?.clock?.[`_${name}`];
  return (saved ?? current) as T;
}

export interface RealTimers {
  setTimeout: typeof globalThis.setTimeout;
  clearTimeout: typeof globalThis.clearTimeout;
  /** Node's: runs its callback once the event loop has handled the I/O ready in this turn. */
  setImmediate: (callback: () => void) => void;
  /** Milliseconds since the Unix epoch, from the system clock. */
  now: () => number;
}

/** The real timers and Date.now behind whatever fakes `globals` holds now. */
export function captureRealTimers(globals: typeof globalThis = globalThis): RealTimers {
  const RealDate = original('Date', globals.Date);
  const setTimeout = original('setTimeout', globals.setTimeout).bind(globals) as typeof globalThis.setTimeout;
  return {
    setTimeout,
    clearTimeout: original('clearTimeout', globals.clearTimeout).bind(globals) as typeof globalThis.clearTimeout,
    // Absent in a browser, where nothing asks for it (only the Node server batches its writes).
    setImmediate: (globals.setImmediate ? original('setImmediate', globals.setImmediate).bind(globals) : (callback: () => void) => void setTimeout(callback, 0)) as (callback: () => void) => void,
    now: () => RealDate.now(),
  };
}

/** The timers and the time the mock runs on, whatever a test does to the globals afterwards. */
export const realTimers: RealTimers = captureRealTimers();

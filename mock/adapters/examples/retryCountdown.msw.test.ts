// The frontend guide's countdown example (docs/frontend.md), run as it is printed (only the import of the adapter differs).
// @vitest-environment jsdom
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createPetsHandlers } from '../msw.ts';

const api = 'http://127.0.0.1:4010/v1';
const { handlers, mock } = await createPetsHandlers();
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  vi.useRealTimers();
  await mock.reset();
});
afterAll(() => server.close());

/** The component under test: lists pets; on 429 it counts down Retry-After, then loads again. */
function petList(root: HTMLElement, key: string) {
  let retry = Promise.resolve();
  async function load(): Promise<void> {
    const res = await fetch(`${api}/pets`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status === 429) return countDown(Number(res.headers.get('retry-after')));
    const ul = document.createElement('ul');
    for (const pet of await res.json()) ul.append(Object.assign(document.createElement('li'), { textContent: pet.name }));
    root.replaceChildren(ul);
  }
  function countDown(seconds: number): void {
    root.textContent = `Too many requests: try again in ${seconds} s.`;
    const timer = setInterval(() => {
      seconds -= 1;
      root.textContent = `Too many requests: try again in ${seconds} s.`;
      if (seconds > 0) return;
      clearInterval(timer);
      retry = load();
    }, 1000);
  }
  return { load, retried: () => retry };
}

it('counts Retry-After down on the UI clock, then lists the pets again', async () => {
  vi.useFakeTimers(); // the UI's time: the component's setInterval
  await mock.freezeClock('2026-06-01T12:30:45Z'); // the API's time: 15 s before its minute ends
  await mock.setKey('one-a-minute', { plan: 'free', perMinute: 1 });
  document.body.innerHTML = '<main></main>';
  const main = document.querySelector('main')!;
  const list = petList(main, 'one-a-minute');

  await list.load(); // the minute's one request
  await list.load(); // 429, Retry-After: 15
  expect(main.textContent).toBe('Too many requests: try again in 15 s.');
  vi.advanceTimersByTime(14_000);
  expect(main.textContent).toBe('Too many requests: try again in 1 s.');

  await mock.advanceClock(15); // the API's minute ends with the countdown
  vi.advanceTimersByTime(1_000);
  await list.retried();
  expect(main.querySelectorAll('li')).toHaveLength(20);
});

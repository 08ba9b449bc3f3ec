// The frontend guide's browser example (docs/frontend.md, "MSW in the browser"): the whole mock in
// the page, through MSW's service worker. Built with Vite and run in Chromium by
// parity.hosts.test.ts, which holds its answers and client reports to every other host's.
import { setupWorker } from 'msw/browser';
import { createPetsHandlers } from 'pet-adoption-toolkit/msw';

// A test may pin the mock's clock (`?clock=<Unix ms>`) so that windows and Retry-After are known,
// and put the API on another origin (`?api=http://127.0.0.1:4010/v1`), which the worker answers too.
const test = new URLSearchParams(location.search);
const pinned = test.get('clock');
const baseUrl = test.get('api') ?? '/v1';

const { handlers, mock } = await createPetsHandlers({
  baseUrl,
  ...(pinned ? { clock: { now: () => Number(pinned) } } : {}),
});
await setupWorker(...handlers).start({ onUnhandledRequest: 'bypass', quiet: true });

const pets = (await (await fetch(`${baseUrl}/pets?limit=5`, { headers: { Authorization: 'Bearer demo-pro' } })).json()) as { name: string }[];
document.querySelector('#pets')!.innerHTML = pets.map((pet) => `<li>${pet.name}</li>`).join('');

// For the test: the control handle, and a sign that the worker answers.
Object.assign(window, { petsMock: mock, petsMockReady: true });

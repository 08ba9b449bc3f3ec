// The frontend guide's browser example (docs/frontend.md, "MSW in the browser"): the whole mock in
// the page, through MSW's service worker. Built with Vite and run in Chromium by
// mswBrowser.browser.test.ts, which holds its answers to the server's.
import { setupWorker } from 'msw/browser';
import { createPetsHandlers } from 'pet-adoption-toolkit/msw';

// A test may pin the mock's clock (`?clock=<Unix ms>`) so that windows and Retry-After are known.
const pinned = new URLSearchParams(location.search).get('clock');

const { handlers, mock } = await createPetsHandlers({
  baseUrl: '/v1',
  ...(pinned ? { clock: { now: () => Number(pinned) } } : {}),
});
await setupWorker(...handlers).start({ onUnhandledRequest: 'bypass', quiet: true });

const pets = (await (await fetch('/v1/pets?limit=5', { headers: { Authorization: 'Bearer demo-pro' } })).json()) as { name: string }[];
document.querySelector('#pets')!.innerHTML = pets.map((pet) => `<li>${pet.name}</li>`).join('');

// For the test: the control handle, and a sign that the worker answers.
Object.assign(window, { petsMock: mock, petsMockReady: true });

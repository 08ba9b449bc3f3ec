import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's Chromium, which CI installs with apt-get; Playwright cannot download its own here. */
const systemChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium for browser tests. `npm test` installs Debian's when it can
 * (scripts/testTools.mjs); a machine without it fails here with what to do, never a skip.
 */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(systemChromium)) {
    throw new Error(`No Chromium at ${systemChromium}. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH=/path/to/chrome.`);
  }
  return chromium.launch({
    executablePath: systemChromium,
    headless: true,
    // The background-networking flags keep Chromium from calling out of a closed network.
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * A frontend for browser tests: an empty page on an origin of its own (another port), as a dev
 * server would serve it, so the page's calls to the mock are cross-origin.
 */
async function serveFrontendPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>frontend</title><h1>Pets</h1>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * One Chromium per test worker, launched when a browser test file first asks: the worker runs its
 * files one after another in one module cache (vitest's `isolate: false`), so each file opens its
 * own contexts in it instead of paying a browser's start (seconds on two cores) again. Playwright
 * kills the browser when the worker's process exits.
 */
let workerChromium: Promise<Browser> | undefined;
function sharedChromium(): Promise<Browser> {
  workerChromium ??= launchChromium().then((browser) => {
    browser.on('disconnected', () => (workerChromium = undefined));
    return browser;
  });
  return workerChromium;
}

/**
 * Chromium and a frontend page server for a browser test file: ready before its tests; after
 * them, every context and page the file opened is closed, and the worker's Chromium is left for
 * its next file. Read `browser` and `frontend` inside tests and hooks.
 */
export function useBrowserAndFrontend(): { readonly browser: Browser; readonly frontend: { origin: string } } {
  let browser: Browser | undefined;
  let frontend: Awaited<ReturnType<typeof serveFrontendPage>> | undefined;
  let before = new Set<unknown>();
  beforeAll(async () => {
    browser = await sharedChromium();
    before = new Set(browser.contexts());
    frontend = await serveFrontendPage();
  });
  afterAll(async () => {
    await Promise.all((browser?.contexts() ?? []).filter((context) => !before.has(context)).map((context) => context.close()));
    await frontend?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('Chromium is not started yet: use it inside a test or a hook.');
    return value;
  };
  return {
    get browser() {
      return started(browser);
    },
    get frontend() {
      return started(frontend);
    },
  };
}

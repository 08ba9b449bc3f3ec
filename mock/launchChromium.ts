import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, which CI installs with apt-get; Playwright cannot download its own here. */
export const systemChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium for browser tests: the system one when present, else Playwright's own
 * (for machines where `npx playwright install` has been run).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: existsSync(systemChromium) ? systemChromium : undefined,
    headless: true,
    // The background-networking flags keep Chromium from calling out of a closed network.
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

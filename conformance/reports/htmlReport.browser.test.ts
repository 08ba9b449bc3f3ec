import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserAndFrontend } from '../../mock/launchChromium.ts';
import type { RunReport } from '../runReport.ts';
import { htmlReport } from './htmlReport.ts';
import { failingRun, failingRunFails, refusedKeyRun } from './testing/handBuiltRuns.ts';

const screen = { width: 1280, height: 800 };
const chromium = useBrowserAndFrontend();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'html-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open(report: RunReport, name: string): Promise<Page> {
  const file = join(dir, name);
  await writeFile(file, htmlReport(report));
  const page = await chromium.browser.newPage({ viewport: screen });
  await page.goto(pathToFileURL(file).href);
  return page;
}

/** Whether an element is drawn within the first screen, without scrolling. */
const onFirstScreen = (page: Page, selector: string) => page.locator(selector).evaluate((el, height) => {
  const box = el.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= height;
}, screen.height);

describe('the HTML report in Chromium at 1280×800', () => {
  let failing: RunReport;
  let page: Page;
  beforeAll(async () => {
    failing = failingRun();
    page = await open(failing, 'failing.html');
  });

  it('shows the verdict and every failed check on the first screen, with no escaped entity showing', async () => {
    const failed = failing.checks.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.id).sort()).toEqual([...failingRunFails].sort());
    await expect(page.title()).resolves.toMatch(/^Conformance failed/);
    expect(await onFirstScreen(page, 'header h1')).toBe(true);
    for (const check of failed) {
      expect(await onFirstScreen(page, `table.failed-checks tr[data-check="${check.id}"]`), check.id).toBe(true);
      await expect(page.locator(`table.failed-checks tr[data-check="${check.id}"]`).innerText()).resolves.toContain(check.id);
    }
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/&(quot|amp|lt|gt|#39);/);
    await page.screenshot({ path: join(process.env.REPORT_SCREENSHOT_DIR ?? dir, 'first-screen.png') });
  });

  it('takes a person from the table to the failed check, whose first evidence is open with its curl line', async () => {
    await page.locator('table.failed-checks a[href="#check-response-schema"]').click();
    expect(await onFirstScreen(page, '#check-response-schema h2')).toBe(true);
    const evidence = page.locator('#check-response-schema details').first();
    await expect(evidence.getAttribute('open')).resolves.toBe('');
    await expect(evidence.locator('pre.curl').innerText()).resolves.toMatch(/^curl -i 'http:\/\/deployment.test\/v1\/pets(\?[^']*)?' .*-H "authorization: Bearer \$PETS_API_KEY"/);
    const unauthenticated = page.locator('#check-rate-limit-headers details').first();
    await expect(unauthenticated.innerText()).resolves.toContain('Bearer realm="pets"');
  });

  it('shows only the failed checks when the filter says so, and all again', async () => {
    const visible = () => page.locator('section.check').evaluateAll((sections) => sections.filter((s) => (s as HTMLElement).offsetParent !== null).map((s) => s.getAttribute('data-status')));
    await page.locator('#show-failed').check();
    expect(new Set(await visible())).toEqual(new Set(['failed']));
    await page.locator('#show-skipped').check();
    expect(new Set(await visible())).toEqual(new Set(['skipped']));
    await page.locator('#show-all').check();
    expect(await visible()).toHaveLength(failing.checks.length);
  });

  it('says on the first screen why a run could not judge', async () => {
    const refused = await open(refusedKeyRun(), 'refused.html');
    expect(await onFirstScreen(refused, '.cannot-run-reason')).toBe(true);
    await expect(refused.locator('.cannot-run-reason').innerText()).resolves.toMatch(/Could not judge http:\/\/deployment.test\/v1: The deployment refused the API key/);
  });
});

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../mock/launchChromium.ts';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { inProcessDeployment, isList } from './testing/deployment.ts';
import { runSuite } from './testing/runSuite.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

it('shows a person the failing check first, with its evidence and the curl line, in Chromium', async () => {
  const deployment = await inProcessDeployment(async (req, forward) => {
    const res = await forward(req);
    return isList(req) && res.status === 200 ? { ...res, body: res.body.replace(/"categoryId":\d+,?/g, '') } : res;
  });
  try {
    const reportDir = await mkdtemp(join(tmpdir(), 'conformance-'));
    const run = await runSuite(deployment, { reportDir });
    expect(run.exitCode).toBe(1);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(reportDir, 'conformance-report.html')).href);
    await expect(page.title()).resolves.toMatch(/^Conformance failed/);
    const first = page.locator('section.check').first();
    await expect(first.getAttribute('data-check')).resolves.toBe('response-schema');
    await expect(first.getAttribute('data-status')).resolves.toBe('failed');
    const finding = first.locator('li.finding.failure').first();
    await expect(finding.innerText()).resolves.toMatch(/categoryId is required/);
    const curl = await finding.locator('pre.curl').innerText();
    expect(curl).toMatch(/^curl -i '.*\/v1\/pets.*' -H "authorization: Bearer \$PETS_API_KEY"/);
    await expect(finding.locator('details').innerText()).resolves.toMatch(/Response 200/);
    const statuses = await page.locator('section.check').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-status')));
    expect(statuses.indexOf('passed')).toBeGreaterThan(statuses.lastIndexOf('failed'));
    await page.screenshot({ path: join(reportDir, 'report.png'), fullPage: false });
  } finally {
    await deployment.close();
  }
});

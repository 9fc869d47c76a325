/**
 * Writes docs/report-example.png: the audit report of a realistic month
 * (test/browser/realistic-month.ts) as headless Chromium draws it, so the
 * README can show what tenants get. Run after changing the report page.
 */
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import { renderAuditReport } from '../shared/domain/audit/report-page';
import { realisticMonth } from '../test/browser/realistic-month';

const OUTPUT = 'docs/report-example.png';

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? (await chromium.executablePath()),
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 860, height: 1200 });
  await page.setContent(renderAuditReport(realisticMonth()), { waitUntil: 'load' });
  await page.screenshot({ path: OUTPUT, fullPage: true });
  console.log(`wrote ${OUTPUT}`);
} finally {
  await browser.close();
}

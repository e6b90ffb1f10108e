import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Dialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

/** Debian's Chromium (installed by .ci/run when missing); never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const VIEWPORTS = {
  phone: { width: 360, height: 740 },
  desktop: { width: 1280, height: 860 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The real server on 127.0.0.1 with a fresh database, serving the built pages, with PUBLIC_URL equal
 * to its own origin (the CSRF Origin check compares against it). The clock starts at the real time so
 * the browser's "now" and the server's agree; tests still move it forward with `t.clock`.
 */
export async function startWebApp(dialect: Dialect, env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp(dialect, { port: await freePort(), now: new Date(), env });
}

export interface PageOptions {
  locale?: 'en' | 'zh-CN';
  viewport?: ViewportName;
  /** The browser's time zone (IANA), e.g. to show that a page does not follow it; the machine's by default. */
  timezoneId?: string;
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and CSP violations seen so far (a page should have none). */
  problems: string[];
}

/** A fresh browser context (own cookies) in the given language and size. */
export async function openPage(browser: Browser, opts: PageOptions = {}): Promise<OpenedPage> {
  const locale = opts.locale ?? 'en';
  const context = await browser.newContext({
    locale,
    viewport: VIEWPORTS[opts.viewport ?? 'desktop'],
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
    extraHTTPHeaders: { 'accept-language': locale === 'zh-CN' ? 'zh-CN,zh;q=0.9' : 'en-US,en;q=0.9' },
    // The copy button writes to the clipboard; tests read it back.
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // 4xx answers the page handles itself (a 401 session probe) show as console errors of the network layer.
    if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) {
      problems.push(`console: ${msg.text()}`);
    }
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return { context, page, problems };
}

/** Saves a screenshot under test-output/screenshots/<name>-<viewport>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const size = page.viewportSize();
  const which = size && size.width <= VIEWPORTS.phone.width ? 'phone' : 'desktop';
  const path = join(SCREENSHOT_DIR, `${name}-${which}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core on the current page (WCAG 2.x A and AA rules); returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // evaluate() runs through the DevTools protocol, outside the page's CSP.
  await page.evaluate(axe.source);
  const result = await page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const r = await run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Asserts the page has no serious or critical accessibility violation (the list is the message). */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * Waits until no request is in flight and the loading indicator is gone, for at most 10 s each; a
 * page that is still loading then fails the test, saying where and what was still shown.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const loading = page.locator('.state-loading');
  try {
    await loading.first().waitFor({ state: 'detached', timeout: SETTLE_MS });
  } catch (err) {
    const shown = await loading.allTextContents().catch(() => []);
    throw new Error(`settled: still loading after ${SETTLE_MS} ms on ${page.url()} (${shown.length} loading indicator(s): ${JSON.stringify(shown)})`, {
      cause: err,
    });
  }
}

const SETTLE_MS = 10_000;

/** Signs a user in through the API from inside the page's context (the cookie lands in the browser). */
export async function signInSession(context: BrowserContext, baseUrl: string, email: string, password: string): Promise<void> {
  const res = await context.request.post(`${baseUrl}/api/v1/auth/signin`, {
    data: { email, password },
    headers: { origin: baseUrl },
  });
  if (res.status() !== 200) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
}

/* global document, window */
// `npm run test:volto`, after run.mjs: Volto 18.33.0 built with multilingual on (test/volto/project-multilingual:
// English and German) in front of a suite whose language panel makes the site multilingual, as an editor translates
// a page (issue 26). Starts the embedded suite and Volto in its seamless mode, switches multilingual on through the
// language control panel (which makes the language root folders /en and /de), then drives Debian's Chromium: the
// front page redirects to /en, login, a page added under /en, translated into German through the toolbar's
// "Translate to deutsch" (Volto asks @translation-locator where, shows the translation form, creates the page with
// `translation_of`), both pages list each other in @translations, and the language selector in the header leads
// from the English page to the German one. A screenshot per step goes to test/volto/screenshots/multilingual/; an
// API request that answered 4xx/5xx unexpectedly (seen in the gateway's request log, so Volto's server-side
// requests count too) or a page error fails the run. No fixed sleeps: every step waits for an element or a response.
// CHROMIUM_PATH (default /usr/bin/chromium), VOLTO_CACHE_DIR (setup.mjs).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, openBrowser, requestLogReader, startSuite, startVolto, waitForHttp } from './servers.mjs';
import { voltoBuildDir } from './setup.mjs';

const SHOTS = fileURLToPath(new URL('./screenshots/multilingual/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 60_000;
const ADMIN_PASSWORD = 'volto-admin';
/** As the Volto build's config.js names them (supportedLanguages), default first. */
const LANGUAGES = ['en', 'de'];
const PAGE_TITLE = 'Multilingual tested page';
const PAGE_TEXT = 'Written in English';
const TRANSLATED_TITLE = 'Mehrsprachige Testseite';

/**
 * API answers that are part of Volto's normal flow, not failures (method, path pattern, status). None so far: every
 * request of this walk answers 2xx or 3xx (the site root's `expand=translations` 400 and the language root's
 * `@types/LRF` 401 to anonymous visitors were the service's bugs).
 */
const EXPECTED = [];

async function main() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH`);
  }
  const volto = voltoBuildDir('multilingual');
  const require = createRequire(join(volto, 'package.json'));
  const puppeteer = require('puppeteer-core');
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });

  const [gatewayPort, voltoPort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${gatewayPort}`;
  const voltoHost = `127.0.0.1:${voltoPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-volto-multilingual-'));
  const failures = [];
  /** Every request the gateway answered (Volto's server-side ones included), in order. */
  const apiLog = [];
  /** The 4xx answers EXPECTED let pass, to be listed at the end. */
  const expectedSeen = [];
  let currentStep = 'start';
  const gateway = startSuite(
    {
      DATA_DIR: dataDir,
      PORT: String(gatewayPort),
      PUBLIC_URL: api,
      PUBLIC_HOSTS: voltoHost,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      // Volto's source names the original's identifiers (`Plone Site`, `LRF`, ...).
      ORIGINAL_IDENTIFIERS: 'true',
    },
    {},
    requestLogReader({ apiLog, expected: EXPECTED, failures, currentStep: () => currentStep, expectedSeen }),
  );
  const voltoServer = startVolto(volto, { host: '127.0.0.1', port: voltoPort, apiUrl: api });
  let browser;
  try {
    await waitForHttp(`${api}/readyz`, 60_000);
    await switchMultilingualOn(api);
    await waitForHttp(`http://${voltoHost}/`, 60_000);
    let page;
    ({ browser, page } = await openBrowser(puppeteer, { chromium: CHROMIUM, timeoutMs: STEP_TIMEOUT_MS }));
    page.on('pageerror', (error) =>
      failures.push(`page error: ${String(error).slice(0, 300)} (during "${currentStep}")`),
    );
    let n = 0;
    const shot = (name) => page.screenshot({ path: join(SHOTS, `${String(n).padStart(2, '0')}-${name}.png`) });
    for (const [name, step] of stepsFor(page, `http://${voltoHost}`, api, shot)) {
      currentStep = name;
      n += 1;
      try {
        await step();
      } finally {
        await shot(name.replace(/\W+/g, '-'));
      }
      console.log(`ok ${n} - ${name}`);
    }
  } catch (error) {
    if (failures.length > 0) console.error(`API requests that answered unexpectedly so far:\n${failures.join('\n')}`);
    throw error;
  } finally {
    await browser?.close();
    await Promise.all([voltoServer.stop(), gateway.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (expectedSeen.length > 0) console.log(`Expected 4xx answers (EXPECTED):\n${expectedSeen.join('\n')}`);
  if (failures.length > 0) throw new Error(`API requests that answered unexpectedly:\n${failures.join('\n')}`);
  console.log(`Volto multilingual: every step passed; screenshots in ${SHOTS}`);
}

const adminAuth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

/** An API call as the site's administrator; answers the parsed body (null for an empty one). */
async function asAdmin(api, method, path, body) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { Authorization: adminAuth, Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** As a site manager does it in the original: the language panel with two languages; the roots come with it. */
async function switchMultilingualOn(api) {
  await asAdmin(api, 'PATCH', '/@controlpanels/language', {
    default_language: LANGUAGES[0],
    available_languages: LANGUAGES,
  });
  for (const language of LANGUAGES) {
    const root = await asAdmin(api, 'GET', `/${language}`);
    if (root['@type'] !== 'LRF') throw new Error(`/${language} is a ${root['@type']}, not a language root folder`);
  }
}

/** The steps, in order; each leaves the page where the next one starts. `shot(name)` takes a screenshot midway. */
function stepsFor(page, site, api, shot) {
  const visit = async (path) => {
    const response = await page.goto(`${site}${path}`, { waitUntil: 'networkidle0' });
    if (!response || response.status() >= 400) throw new Error(`${path} answered ${response?.status()}`);
  };
  const pathname = () => new URL(page.url()).pathname;
  const waitForText = (selector, wanted) =>
    page.waitForFunction(
      (s, w) => [...document.querySelectorAll(s)].some((el) => (el.textContent ?? '').includes(w)),
      {},
      selector,
      wanted,
    );
  /** Clicks the first element matching `selector` whose text includes `wanted` (Volto's menus have no ids). */
  const clickText = async (selector, wanted) => {
    await waitForText(selector, wanted);
    await page.evaluate(
      (s, w) => [...document.querySelectorAll(s)].find((el) => (el.textContent ?? '').includes(w))?.click(),
      selector,
      wanted,
    );
  };
  let englishPath = '';
  let germanPath = '';
  return [
    [
      'the front page leads to the English root, with the language selector',
      async () => {
        await visit('/');
        await page.waitForFunction(() => window.location.pathname === '/en');
        await page.waitForSelector('.language-selector a[title="Deutsch"]');
      },
    ],
    [
      'login through the form',
      async () => {
        await visit('/login');
        await page.type('#login', 'admin');
        await page.type('#password', ADMIN_PASSWORD);
        await Promise.all([page.waitForSelector('#toolbar .toolbar-actions'), page.click('#login-form-submit')]);
      },
    ],
    [
      'add a page under /en',
      async () => {
        await visit('/en/add?type=Document');
        const title = '.block.title [contenteditable="true"]';
        await page.waitForSelector(title);
        await page.click(title);
        await page.keyboard.type(PAGE_TITLE);
        await page.keyboard.press('Enter');
        // Enter makes a text block and moves the focus there once it is rendered.
        await page.waitForFunction(() => document.activeElement?.closest('.block.slate') != null);
        await page.keyboard.type(PAGE_TEXT);
        const [created] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/++api++/en')),
          page.click('#toolbar-save'),
        ]);
        if (created.status() !== 201) throw new Error(`creating the page answered ${created.status()}`);
        await waitForText('#page-document', PAGE_TEXT);
        englishPath = pathname();
        if (englishPath !== '/en/multilingual-tested-page') throw new Error(`the new page is at ${englishPath}`);
      },
    ],
    [
      'translate it into German through the toolbar menu',
      async () => {
        await visit(englishPath);
        await page.click('#toolbar-add');
        // Volto offers each supported language the page has no translation in yet.
        await clickText('.menu-more a', 'Translate to deutsch');
        // Volto asked @translation-locator where the translation goes and opened the add form there.
        await page.waitForSelector('#page-add-translation .new-translation');
        if (pathname() !== '/de/add') throw new Error(`the translation form is at ${pathname()}`);
        const title = '.new-translation .block.title [contenteditable="true"]';
        await page.waitForSelector(title);
        await page.click(title);
        // The form starts from the English page's title: the translator writes over it.
        await page.keyboard.down('Control');
        await page.keyboard.press('a');
        await page.keyboard.up('Control');
        await page.keyboard.type(TRANSLATED_TITLE);
        await shot('translation-form');
        const [created] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/++api++/de')),
          page.click('#toolbar-save'),
        ]);
        if (created.status() !== 201) throw new Error(`creating the translation answered ${created.status()}`);
        const sent = JSON.parse(created.request().postData() ?? '{}');
        if (sent.translation_of !== englishPath || sent.language !== 'de') {
          throw new Error(`the form sent translation_of ${sent.translation_of}, language ${sent.language}`);
        }
        await waitForText('.documentFirstHeading', TRANSLATED_TITLE);
        germanPath = pathname();
        if (!germanPath.startsWith('/de/')) throw new Error(`the translation is at ${germanPath}`);
      },
    ],
    [
      'each page lists the other in @translations',
      async () => {
        for (const [path, other, language] of [
          [englishPath, germanPath, 'de'],
          [germanPath, englishPath, 'en'],
        ]) {
          const { items } = await asAdmin(api, 'GET', `${path}/@translations`);
          const listed = items.map((item) => `${item.language} ${new URL(item['@id']).pathname}`);
          if (!listed.includes(`${language} ${other}`)) {
            throw new Error(`${path}/@translations lists ${listed.join(', ') || 'nothing'}, not ${other}`);
          }
        }
      },
    ],
    [
      'the language selector leads from the English page to the German one',
      async () => {
        await visit(englishPath);
        await page.waitForSelector('.language-selector a[title="Deutsch"]');
        await Promise.all([
          page.waitForFunction((path) => window.location.pathname === path, {}, germanPath),
          page.click('.language-selector a[title="Deutsch"]'),
        ]);
        await waitForText('.documentFirstHeading', TRANSLATED_TITLE);
        // The selector marks the language shown as the selected one.
        await page.waitForSelector('.language-selector a.selected[title="Deutsch"]');
      },
    ],
  ];
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

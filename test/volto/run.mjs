/* global document */
// `npm run test:volto`: Volto 18.33.0, unchanged, in front of the suite (issue 16). Builds Volto once into a cache
// (setup.mjs), starts the embedded suite and Volto in its seamless mode (Volto's server proxies /++api++ to the
// gateway), and drives Debian's Chromium through an editor's day: the front page, login, add, edit, publish,
// contents, search, site setup, history, sharing, an image block with an uploaded image, a rename in Contents (the
// old URL and URL Management), History's diff, a colleague given "Can edit" in Sharing editing (their page:
// colleague-edited.png), Undo of that edit, every Site Setup panel, comments with moderation (Site Setup →
// Discussion, the page's "Allow discussion", the colleague's comment held, Moderate comments, approved, then shown to
// anonymous: comments-*.png), a page imported from a Plone 6 export. A screenshot per step goes to
// test/volto/screenshots/; any API request that answered 4xx/5xx unexpectedly (seen in the gateway's request log,
// so Volto's server-side requests count too) fails the run. No fixed sleeps: every step waits for an element or a
// response.
//
// Two passes, each against a new site: every step with the suite emitting the original identifiers
// (ORIGINAL_IDENTIFIERS=true: `plone.app.vocabularies.*`, `Plone Site`, ... as Volto's source names them), then
// with the specification's neutral names every step they can serve (today all: each step says why, and where Volto's
// hard-coded original names still show). `VOLTO_PASSES=original` or `neutral` runs one; `VOLTO_STEPS=2-5,17` runs only
// those steps. CHROMIUM_PATH (default /usr/bin/chromium), VOLTO_CACHE_DIR (setup.mjs).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, openBrowser, requestLogReader, ROOT, startSuite, startVolto, waitForHttp } from './servers.mjs';
import { voltoBuildDir } from './setup.mjs';

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 60_000;
const ADMIN_PASSWORD = 'volto-admin';

/** API answers that are part of Volto's normal flow, not failures (method, path pattern, status). */
const EXPECTED = [
  // Volto asks for the login options and the user's portrait, which may not exist.
  { method: 'GET', path: /\/@portrait\//, status: 404 },
  // Rendering a renamed page's old URL, Volto's server asks the content and its @workflow at once; both answer a
  // redirect, as the original's do (plone.rest's `find_redirect_if_view_or_service` redirects a named service of an
  // old path to the new path with the service appended), and when @workflow's comes first Volto sends the browser to
  // `<new path>/@workflow` and asks that page's @workflow, which does not exist.
  { method: 'GET', path: /\/@workflow\/@workflow$/, status: 404 },
  // Volto 18's edit form asks the users and keywords vocabularies (creators, tags) always at the site root: its
  // getVocabulary keeps only the name of the schema's vocabulary URL (helpers/Vocabularies: getVocabName). The
  // original checks plone.app.vocabularies' PERMISSIONS there (Modify portal content for Users and Keywords) and
  // answers 403 to a colleague who may edit only this page; so does the service. The neutral pass asks them by their
  // neutral names.
  {
    method: 'GET',
    path: /^\/\+\+api\+\+\/@vocabularies\/(plone|cms)\.app\.vocabularies\.(Users|Keywords)\?/,
    status: 403,
  },
];

/**
 * The original pass runs every step; the neutral pass the steps marked NEUTRAL: those the neutral names can serve,
 * where Volto names no original identifier, or names one only as input the service accepts as an alias (addendum §8).
 * Each step says why it is or is not one.
 */
const PASSES = [
  { name: 'original', originalIdentifiers: true },
  { name: 'neutral', originalIdentifiers: false },
];
/**
 * A step's third member when the neutral pass runs it too; a step that names an original identifier Volto hard-codes
 * in a way the neutral names cannot serve leaves it out, and says why. Today every step serves both.
 */
const NEUTRAL = true;

/**
 * `VOLTO_STEPS=2-5,18`: only these steps (numbered as in the original pass's full list), to iterate on one; a step
 * still needs what the steps before it made (a page, a login).
 */
function chosenSteps(spec) {
  if (!spec) return () => true;
  const ranges = spec.split(',').map((part) => {
    const [from, to = from] = part.split('-').map((n) => Number.parseInt(n, 10));
    if (!Number.isInteger(from) || !Number.isInteger(to)) throw new Error(`VOLTO_STEPS: cannot read "${part}"`);
    return [from, to];
  });
  return (n) => ranges.some(([from, to]) => n >= from && n <= to);
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH`);
  }
  const volto = voltoBuildDir();
  const require = createRequire(join(volto, 'package.json'));
  const puppeteer = require('puppeteer-core');
  rmSync(SHOTS, { recursive: true, force: true });
  for (const pass of PASSES.filter((p) => !process.env.VOLTO_PASSES || process.env.VOLTO_PASSES === p.name)) {
    console.log(`# Volto with the ${pass.name} identifiers`);
    await runPass(pass, volto, puppeteer);
  }
  console.log(`Volto: every step passed; screenshots in ${SHOTS}`);
}

async function runPass(pass, volto, puppeteer) {
  const shots = join(SHOTS, pass.name);
  mkdirSync(shots, { recursive: true });

  const [gatewayPort, voltoPort] = [await freePort(), await freePort()];
  const voltoHost = `127.0.0.1:${voltoPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-volto-'));
  const failures = [];
  /** Every request the gateway answered (Volto's server-side ones included), in order. */
  const apiLog = [];
  /** The 4xx answers EXPECTED let pass, to be listed at the end. */
  const expectedSeen = [];
  const gateway = startSuite(
    {
      DATA_DIR: dataDir,
      PORT: String(gatewayPort),
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      PUBLIC_HOSTS: voltoHost,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      ORIGINAL_IDENTIFIERS: String(pass.originalIdentifiers),
    },
    {},
    requestLogReader({ apiLog, expected: EXPECTED, failures, currentStep: () => currentStep, expectedSeen }),
  );
  const voltoServer = startVolto(volto, {
    host: '127.0.0.1',
    port: voltoPort,
    apiUrl: `http://127.0.0.1:${gatewayPort}`,
  });
  let currentStep = 'start';
  let browser;
  try {
    await waitForHttp(`http://127.0.0.1:${gatewayPort}/readyz`, 60_000);
    await waitForHttp(`http://${voltoHost}/`, 60_000);
    let page;
    ({ browser, page } = await openBrowser(puppeteer, { chromium: CHROMIUM, timeoutMs: STEP_TIMEOUT_MS }));
    /** Any page's uncaught errors fail the run (the colleague's page too). */
    const watchErrors = (p) =>
      p.on('pageerror', (error) =>
        failures.push(`page error: ${String(error).slice(0, 300)} (during "${currentStep}")`),
      );
    watchErrors(page);
    const site = `http://${voltoHost}`;
    const steps = [...stepsFor(page, site, apiLog, watchErrors, shots), importedPloneSite(page, site, dataDir)];
    const chosen = chosenSteps(process.env.VOLTO_STEPS);
    const wanted = steps
      .map(([name, step, neutral], index) => ({ n: index + 1, name, step, neutral }))
      .filter(({ n, neutral }) => chosen(n) && (pass.originalIdentifiers || neutral === NEUTRAL));
    for (const { n, name, step } of wanted) {
      currentStep = name;
      const started = Date.now();
      try {
        await step();
      } finally {
        await page.screenshot({ path: join(shots, `${String(n).padStart(2, '0')}-${name.replace(/\W+/g, '-')}.png`) });
      }
      console.log(`ok ${n} - ${name} (${Date.now() - started} ms)`);
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
  if (failures.length > 0) {
    throw new Error(`API requests that answered unexpectedly:\n${failures.join('\n')}`);
  }
}

/** The hand-made Plone 6 export of the tests (plone.exportimport's layout), and a page of it. */
const PLONE_EXPORT = join(ROOT, 'test/fixtures/plone-export');
const IMPORTED_PAGE = { path: '/about/team', title: 'Our team', text: 'Jane leads the team; Joe runs the sprints.' };

/**
 * The last step: the sample Plone 6 export loaded by `npm run import` into the running suite (it finds it through
 * DATA_DIR), then a page of it viewed as the original's Volto shows it: its title, its text block, its teaser of
 * another imported page and its image block of an imported image.
 */
function importedPloneSite(page, site, dataDir) {
  return [
    'a page imported from a Plone 6 export renders',
    async () => {
      const output = await new Promise((resolve, reject) => {
        execFile(
          process.execPath,
          [join(ROOT, 'services/content/dist/import.js'), PLONE_EXPORT],
          { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, IMPORT_PASSWORD: ADMIN_PASSWORD } },
          (error, stdout, stderr) =>
            error ? reject(new Error(`npm run import failed: ${stderr || stdout}`)) : resolve(stdout),
        );
      });
      console.log(output.trim().split('\n').slice(-8).join('\n'));
      const response = await page.goto(`${site}${IMPORTED_PAGE.path}`, { waitUntil: 'networkidle0' });
      if (!response || response.status() >= 400)
        throw new Error(`${IMPORTED_PAGE.path} answered ${response?.status()}`);
      await page.waitForFunction(
        (title, text) => {
          const content = document.querySelector('#page-document')?.textContent ?? '';
          return content.includes(title) && content.includes(text);
        },
        {},
        IMPORTED_PAGE.title,
        IMPORTED_PAGE.text,
      );
      const teaser = await page.$eval('#page-document', (el) => el.textContent ?? '');
      if (!teaser.includes('Registration is open')) throw new Error('the teaser of the imported news item is missing');
      const image = await page.waitForFunction(() =>
        [...document.querySelectorAll('#page-document img')].some((img) => img.complete && img.naturalWidth > 0),
      );
      if (!image) throw new Error('the imported image block shows no image');
    },
    // Neutral: the importer reads the export's original names as input (addendum §8); the page's rendering compares
    // no identifier.
    NEUTRAL,
  ];
}

const DOC_TITLE = 'Volto tested page';
const DOC_TEXT = 'Written through the browser';
const RENAMED = 'renamed-page';
const COLLEAGUE = 'colleague';
const COLLEAGUE_PASSWORD = 'colleague-password';
const COLLEAGUE_FULLNAME = 'A Colleague';
const COMMENT_TEXT = 'A comment held for moderation';
/** A real PNG for the image block: the README's screenshot of Volto. */
const IMAGE = join(ROOT, 'docs/volto.png');

/** The steps, in order; each leaves the page where the next one starts. */
function stepsFor(page, site, apiLog, watchErrors, shots) {
  /** Waits until the gateway has answered a request matching `method` and `path` since `from` (an apiLog index). */
  const answered = async (method, path, from) => {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      const found = apiLog.slice(from).find((r) => r.method === method && path.test(r.path));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${method} ${path} reached the gateway`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const visit = async (path) => {
    const response = await page.goto(`${site}${path}`, { waitUntil: 'networkidle0' });
    if (!response || response.status() >= 400) throw new Error(`${path} answered ${response?.status()}`);
  };
  const text = (selector) => page.$eval(selector, (el) => el.textContent ?? '');
  const waitForText = (selector, wanted) =>
    page.waitForFunction(
      (s, w) => [...document.querySelectorAll(s)].some((el) => (el.textContent ?? '').includes(w)),
      {},
      selector,
      wanted,
    );
  /** Calls the API as the logged-in browser user (Volto keeps the token in the `auth_token` cookie). */
  const api = (method, path, body) =>
    page.evaluate(
      async (m, p, b) => {
        const token = document.cookie.match(/(?:^|; )auth_token=([^;]+)/)?.[1];
        const response = await fetch(`/++api++${p}`, {
          method: m,
          headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: b === undefined ? undefined : JSON.stringify(b),
        });
        return { status: response.status, body: response.status === 204 ? null : await response.json() };
      },
      method,
      path,
      body,
    );
  /** Logs in through the form on `p`. */
  const login = async (p, user, password) => {
    await p.goto(`${site}/login`, { waitUntil: 'networkidle0' });
    await p.type('#login', user);
    await p.type('#password', password);
    await Promise.all([p.waitForSelector('#toolbar .toolbar-actions'), p.click('#login-form-submit')]);
  };
  /** Runs `use` with a page in a browser context of its own (another user, or anonymous), closed after. */
  const inOwnBrowser = async (use) => {
    const context = await page.browser().createBrowserContext();
    try {
      const theirs = await context.newPage();
      watchErrors(theirs);
      theirs.setDefaultTimeout(STEP_TIMEOUT_MS);
      await theirs.setViewport({ width: 1280, height: 900 });
      return await use(theirs);
    } finally {
      await context.close();
    }
  };
  let colleagueAdded = false;
  /** Adds the colleague's account (once) as the logged-in admin, through the API: Volto's form is not under test. */
  const addColleague = async () => {
    if (colleagueAdded) return;
    const created = await api('POST', '/@users', {
      username: COLLEAGUE,
      password: COLLEAGUE_PASSWORD,
      email: 'colleague@example.org',
      fullname: COLLEAGUE_FULLNAME,
    });
    if (created.status !== 201) throw new Error(`adding the colleague answered ${created.status}`);
    colleagueAdded = true;
  };
  let docPath = '';
  return [
    // Neutral: Volto renders the root from its blocks; it compares no answer with an original name.
    [
      'anonymous front page shows the site root blocks',
      async () => {
        await visit('/');
        await page.waitForSelector('#page-document .documentFirstHeading');
        if (!(await text('#page-document')).trim()) throw new Error('the front page has no content');
      },
      NEUTRAL,
    ],
    // Neutral: @login and the user's actions carry no identifier.
    [
      'login through the form',
      async () => {
        await login(page, 'admin', ADMIN_PASSWORD);
      },
      NEUTRAL,
    ],
    // Neutral: the add form follows `@types/Document`'s schema, vocabularies included, whatever they are named.
    [
      'add a Document with a title and a text block',
      async () => {
        await visit('/add?type=Document');
        const title = '.block.title [contenteditable="true"]';
        await page.waitForSelector(title);
        await page.click(title);
        await page.keyboard.type(DOC_TITLE);
        await page.keyboard.press('Enter');
        // Enter makes a text block and moves the focus there once it is rendered.
        await page.waitForFunction(() => document.activeElement?.closest('.block.slate') != null);
        await page.keyboard.type(DOC_TEXT);
        await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/++api++/')),
          page.click('#toolbar-save'),
        ]);
        await waitForText('#page-document', DOC_TEXT);
        docPath = new URL(page.url()).pathname;
        if (!docPath.includes('volto-tested-page')) throw new Error(`the new page is at ${docPath}`);
      },
      NEUTRAL,
    ],
    // Neutral: as the add form; the lock carries no identifier.
    [
      'edit it: lock, save with Lock-Token, unlock',
      async () => {
        const from = apiLog.length;
        await visit(`${docPath}/edit`);
        // Volto's server takes the lock while it renders the edit form.
        const lock = await answered('POST', new RegExp(`^/\\+\\+api\\+\\+${docPath}/@lock$`), from);
        if (lock.status !== 200) throw new Error(`the lock answered ${lock.status}`);
        const title = '.block.title [contenteditable="true"]';
        await page.waitForSelector(title);
        await page.click(title);
        await page.keyboard.press('End');
        await page.keyboard.type(' (edited)');
        const [saved] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/++api++${docPath}`)),
          page.click('#toolbar-save'),
        ]);
        if (!saved.request().headers()['lock-token']) throw new Error('the save carried no Lock-Token');
        await waitForText('.documentFirstHeading', '(edited)');
        // Leaving the form releases the lock.
        const unlock = await answered('DELETE', new RegExp(`^/\\+\\+api\\+\\+${docPath}/@lock$`), from);
        if (unlock.status !== 200) throw new Error(`the unlock answered ${unlock.status}`);
      },
      NEUTRAL,
    ],
    // Neutral: the toolbar compares the context's type with `Plone Site` only to hide items on the site root
    // (More.jsx); this is a Document.
    [
      'publish through the workflow menu',
      async () => {
        await visit(docPath);
        await page.click('#toolbar-more');
        const control = '.react-select-container .react-select__control';
        await page.waitForSelector(control);
        await page.click(control);
        await page.waitForSelector('.react-select__option');
        const published = page.waitForResponse((r) => /@workflow\/publish$/.test(r.url()));
        await page.evaluate(() => {
          const option = [...document.querySelectorAll('.react-select__option')].find((el) =>
            /publish/i.test(el.textContent ?? ''),
          );
          option?.click();
        });
        if ((await published).status() !== 200) throw new Error('publishing failed');
      },
      NEUTRAL,
    ],
    // Neutral: the page as Volto draws it for an editor; no identifier is compared. Its API calls (Volto's server's
    // and the browser's) are the unit of `node bench/run.mjs pageview` (issue 27): with VOLTO_PAGEVIEW_LOG set, they
    // are written to that file (the document's path as `{document}`).
    [
      'a logged-in editor loads the published page',
      async () => {
        const from = apiLog.length;
        await visit(docPath);
        await page.waitForSelector('#toolbar .toolbar-actions');
        await waitForText('#page-document .documentFirstHeading', DOC_TITLE);
        if (process.env.VOLTO_PAGEVIEW_LOG)
          writePageViewLog(process.env.VOLTO_PAGEVIEW_LOG, apiLog.slice(from), docPath);
      },
      NEUTRAL,
    ],
    // Neutral: `@search` with metadata columns; no identifier is compared.
    [
      'the Contents view shows the dates',
      async () => {
        await visit('/contents');
        await waitForText('.contents-table-wrapper, table', DOC_TITLE);
        const table = await text('.contents-table-wrapper, table');
        if (/\bNone\b/.test(table)) throw new Error('the Contents view shows "None" for a date');
      },
      NEUTRAL,
    ],
    // Neutral: the search page asks `plone.app.vocabularies.Keywords` by that name (SearchTags.jsx), an input the
    // service accepts as the alias of the neutral one (addendum §8).
    [
      'search finds it',
      async () => {
        await visit('/search?SearchableText=browser');
        await waitForText('#page-search, #content', DOC_TITLE);
      },
      NEUTRAL,
    ],
    // Neutral: the panel list and the editing panel come from `@controlpanels` as answered.
    [
      'Site Setup lists the panels and saves one',
      async () => {
        await visit('/controlpanel');
        await page.waitForSelector('a[href="/controlpanel/editing"], a[href$="/controlpanel/editing"]');
        const panels = await page.$$eval('a[href*="/controlpanel/"]', (links) => links.length);
        if (panels < 10) throw new Error(`Site Setup lists ${panels} panels`);
        await visit('/controlpanel/editing');
        await page.waitForSelector('#toolbar-save');
        const [saved] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('@controlpanels/editing')),
          page.click('#toolbar-save'),
        ]);
        if (saved.status() !== 204) throw new Error(`saving the editing panel answered ${saved.status()}`);
      },
      NEUTRAL,
    ],
    // Neutral: `@history` carries no identifier.
    [
      'the History view lists the edit',
      async () => {
        await visit(`${docPath}/historyview`);
        await waitForText('#page-history, table', 'Edited');
      },
      NEUTRAL,
    ],
    // Neutral: `@sharing` carries no identifier.
    [
      'sharing',
      async () => {
        await visit(`${docPath}/sharing`);
        await waitForText('#page-sharing, table', 'Logged-in users');
      },
      NEUTRAL,
    ],
    // Neutral: the upload and its scales name no identifier.
    [
      'add an image block with an uploaded image; its scale loads',
      async () => {
        await visit(`${docPath}/edit`);
        const text = '.block.slate [contenteditable="true"]';
        await page.waitForSelector(text);
        await page.click(text);
        await page.keyboard.press('End');
        // Enter at the end of a text block makes an empty one, which offers the block chooser.
        await page.keyboard.press('Enter');
        // Once the new block has the focus (it shows the add button then), the chooser opens from it.
        await page.waitForFunction(() => {
          const block = document.activeElement?.closest('.block.slate');
          return block != null && !(block.textContent ?? '').includes('Written');
        });
        const add = '.block.slate:focus-within .block-add-button, .block-editor-slate:focus-within .block-add-button';
        // The focus does not always land in the new block (Volto renders it more than once): then it is clicked.
        let addButton = await page.waitForSelector(add, { timeout: 5_000 }).catch(() => null);
        if (!addButton) {
          const editables = await page.$$('.block.slate [contenteditable="true"]');
          // An empty block shows its placeholder ("Type text…"), which is not its text.
          const texts = await Promise.all(
            editables.map((el) =>
              el.evaluate((node) => {
                const copy = node.cloneNode(true);
                copy.querySelectorAll('[data-slate-placeholder]').forEach((placeholder) => placeholder.remove());
                return copy.textContent ?? '';
              }),
            ),
          );
          const empty = editables[texts.findLastIndex((text) => !text.trim())];
          if (!empty) throw new Error('no empty text block to add the image block from');
          await empty.click();
          addButton = await page.waitForSelector(add);
        }
        await addButton.click();
        await page.waitForSelector('.blocks-chooser .button.image');
        await page.click('.blocks-chooser .button.image');
        const input = '.block.image input[type="file"]';
        await page.waitForSelector(input);
        // A document is not folderish: Volto uploads the image beside it, into the site root.
        const created = page.waitForResponse(
          (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/++api++/',
        );
        // The new block renders more than once: an input replaced meanwhile is found again.
        for (let attempt = 1; ; attempt += 1) {
          try {
            await (await page.waitForSelector(input)).uploadFile(IMAGE);
            break;
          } catch (error) {
            if (attempt === 3 || !/detached/i.test(String(error))) throw error;
          }
        }
        if ((await created).status() !== 201) throw new Error(`the upload answered ${(await created).status()}`);
        await page.waitForSelector('.block.image img');
        await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/++api++${docPath}`)),
          page.click('#toolbar-save'),
        ]);
        await page.waitForSelector('#page-document img');
        const src = await page.$eval('#page-document img', (img) => img.currentSrc || img.src);
        if (!src.includes('@@images/')) throw new Error(`the image block shows ${src}`);
        const scale = await page.evaluate(async (url) => {
          const response = await fetch(url);
          return { status: response.status, type: response.headers.get('content-type') };
        }, src);
        if (scale.status !== 200 || !scale.type?.startsWith('image/')) {
          throw new Error(`${src} answered ${scale.status} ${scale.type}`);
        }
        const loaded = await page.$eval('#page-document img', (img) => img.complete && img.naturalWidth > 0);
        if (!loaded) throw new Error(`the browser did not show ${src}`);
      },
      NEUTRAL,
    ],
    // Neutral: a rename and `@aliases` carry no identifier.
    [
      'rename it in Contents; the old URL still reaches it and URL Management lists it',
      async () => {
        await visit('/contents');
        await waitForText('.contents-table-wrapper, table', DOC_TITLE);
        const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
        const n = rows.findIndex((row) => row.includes(DOC_TITLE));
        if (n < 0) throw new Error('Contents has no row for the page');
        // Volto labels the unchecked box "Checked" (what a click makes it).
        await page.click(`tbody tr:nth-child(${n + 1}) button[aria-label="Checked"]`);
        await page.waitForSelector(`tbody tr:nth-child(${n + 1}) button[aria-label="Unchecked"]`);
        await page.click('button[aria-label="Rename"], .item[aria-label="Rename"]');
        const id = '#field-0_id';
        await page.waitForSelector(id);
        await page.click(id, { clickCount: 3 });
        await page.keyboard.type(RENAMED);
        const [renamed] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/++api++${docPath}`)),
          page.click('.modal button[aria-label="Save"], .modal button.primary'),
        ]);
        if (renamed.status() >= 300) throw new Error(`the rename answered ${renamed.status()}`);
        // The listing shows titles; the renamed row links to the new short name.
        await page.waitForSelector(`tbody a[href$="/${RENAMED}"]`);
        const oldPath = docPath;
        docPath = `/${RENAMED}`;
        await visit(oldPath);
        await waitForText('#page-document', DOC_TEXT);
        if (new URL(page.url()).pathname !== docPath) throw new Error(`${oldPath} led to ${page.url()}`);
        await visit(`${docPath}/aliases`);
        await waitForText('body', oldPath);
      },
      NEUTRAL,
    ],
    // Neutral: `@history` versions carry no identifier.
    [
      'History: the diff of a block change shows text',
      async () => {
        await visit(docPath);
        const versions = await page.evaluate(async (path) => {
          const token = document.cookie.match(/(?:^|; )auth_token=([^;]+)/)?.[1];
          const response = await fetch(`/++api++${path}/@history`, {
            headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
          });
          return (await response.json()).filter((e) => typeof e.version === 'number').map((e) => e.version);
        }, docPath);
        // The newest version added the image block to the blocks the text block was in (the rename made none).
        const [two, one] = [...versions].sort((a, b) => b - a);
        if (one === undefined) throw new Error(`the history has versions ${versions.join(', ')}`);
        await visit(`${docPath}/diff?one=${one}&two=${two}`);
        await waitForText('#page-diff, #content, main', DOC_TEXT);
        const shown = await page.evaluate(() => document.body.innerText);
        if (shown.includes('[object Object]')) throw new Error('the diff shows [object Object]');
      },
      NEUTRAL,
    ],
    // Neutral: the edit form asks the vocabularies its schema names (neutral here).
    [
      'a colleague given "Can edit" in Sharing edits the published page',
      async () => {
        await visit(docPath);
        await addColleague();
        await visit(`${docPath}/sharing`);
        await page.waitForSelector('#sharing-component-search');
        await page.type('#sharing-component-search', COLLEAGUE);
        await Promise.all([
          page.waitForResponse((r) => r.url().includes('/@sharing?search=')),
          page.keyboard.press('Enter'),
        ]);
        const canEdit = `input[value="${COLLEAGUE}:Editor"]`;
        await page.waitForSelector(canEdit);
        // Semantic UI's checkbox hides its input: the box around it takes the click.
        await page.click(`.ui.checkbox:has(> ${canEdit})`);
        await page.waitForFunction((s) => document.querySelector(s)?.checked === true, {}, canEdit);
        const [shared] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/@sharing')),
          page.click('button[type="submit"][aria-label="Save"]'),
        ]);
        if (shared.status() !== 204) throw new Error(`saving the sharing answered ${shared.status()}`);

        await inOwnBrowser(async (theirs) => {
          await login(theirs, COLLEAGUE, COLLEAGUE_PASSWORD);
          await theirs.goto(`${site}${docPath}/edit`, { waitUntil: 'networkidle0' });
          const title = '.block.title [contenteditable="true"]';
          await theirs.waitForSelector(title);
          await theirs.click(title);
          await theirs.keyboard.press('End');
          await theirs.keyboard.type(' by a colleague');
          const [saved] = await Promise.all([
            theirs.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/++api++${docPath}`)),
            theirs.click('#toolbar-save'),
          ]);
          if (saved.status() >= 300) throw new Error(`the colleague's save answered ${saved.status()}`);
          await theirs.waitForFunction(() =>
            document.querySelector('.documentFirstHeading')?.textContent?.includes('by a colleague'),
          );
          await theirs.screenshot({ path: join(shots, 'colleague-edited.png') });
        });
      },
      NEUTRAL,
    ],
    // Neutral: `@transactions` carries no identifier.
    [
      "Undo lists the colleague's change and undoes it",
      async () => {
        await visit('/controlpanel/undo');
        const first = 'tbody tr:first-child input.transactions-checkboxes, tbody tr:first-child input[type="checkbox"]';
        await page.waitForSelector(first);
        const newest = await page.$eval('tbody tr:first-child', (tr) => tr.innerText);
        if (!newest.includes(COLLEAGUE)) throw new Error(`the newest transaction is: ${newest.slice(0, 200)}`);
        await page.click(first);
        const [undone] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/@transactions')),
          page.click('#undo-button'),
        ]);
        if (undone.status() >= 300) throw new Error(`the undo answered ${undone.status()}`);
        await visit(docPath);
        await page.waitForSelector('.documentFirstHeading');
        if ((await text('.documentFirstHeading')).includes('colleague')) {
          throw new Error('the undone title is still shown');
        }
      },
      NEUTRAL,
    ],
    // Neutral, with one panel less than it seems: Site Setup links what `@controlpanels` lists, so every panel is
    // opened by its neutral id; but Volto routes its content types screens by the original id only
    // (`/controlpanel/dexterity-types`, routes.js), so the neutral `cms-types` tile opens Volto's generic panel form,
    // not those screens. That it opens without an error is all this step asks of it there.
    [
      'every Site Setup panel that @controlpanels lists opens',
      async () => {
        await visit('/controlpanel');
        const panels = await page.evaluate(async () => {
          const token = document.cookie.match(/(?:^|; )auth_token=([^;]+)/)?.[1];
          const response = await fetch('/++api++/@controlpanels', {
            headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
          });
          return (await response.json()).map((panel) => panel['@id'].split('/@controlpanels/')[1]);
        });
        if (panels.length < 10) throw new Error(`@controlpanels lists ${panels.length} panels`);
        // Site Setup links them, and Volto's own panels (users, groups, undo, rules, ...).
        const links = await page.$$eval('a[href*="/controlpanel/"]', (as) =>
          as.map((a) => new URL(a.href).pathname.split('/controlpanel/')[1]),
        );
        // Volto hides two (config.settings.filterControlPanels): `content-rules`, which it shows as `rules`, and
        // `markup`.
        const unlinked = panels.filter((id) => !links.includes(id) && !['content-rules', 'markup'].includes(id));
        if (unlinked.length > 0) throw new Error(`Site Setup does not link ${unlinked.join(', ')}`);
        for (const panel of new Set(links)) {
          await visit(`/controlpanel/${panel}`);
          // What is shown (textContent would include the page's scripts and their messages).
          const body = await page.evaluate(() => document.body.innerText);
          if (/something went wrong|does not seem to exist|Forbidden/i.test(body)) {
            throw new Error(`the ${panel} panel shows an error`);
          }
        }
      },
      NEUTRAL,
    ],
    // Neutral: `@comments`, the discussion panel and the moderation view's search (`Discussion Item` is no brand)
    // carry no original identifier.
    [
      'comments with moderation: posted, pending, approved, then shown to anonymous',
      async () => {
        // Site Setup → Discussion: comments on, and moderation.
        await visit('/controlpanel/discussion');
        for (const field of ['globally_enabled', 'moderation_enabled']) {
          const box = `#field-${field}`;
          await page.waitForSelector(box);
          if (!(await page.$eval(box, (input) => input.checked))) {
            await page.click(`.ui.checkbox:has(> ${box})`);
            await page.waitForFunction((s) => document.querySelector(s)?.checked === true, {}, box);
          }
        }
        await page.screenshot({ path: join(shots, 'comments-1-discussion-panel.png') });
        const [saved] = await Promise.all([
          page.waitForResponse(
            (r) => r.request().method() === 'PATCH' && r.url().includes('/@controlpanels/discussion'),
          ),
          page.click('#toolbar-save'),
        ]);
        if (saved.status() !== 204) throw new Error(`saving the discussion panel answered ${saved.status()}`);

        // The page's own setting: the edit form's Settings, "Allow discussion" → Yes.
        await visit(`${docPath}/edit`);
        // The sidebar's first tab is the page's (its type's title); a selected block may have taken the focus.
        await page.click('.sidebar-container .formtabs > :first-child');
        const allow = '#field-allow_discussion .react-select__control';
        await page.waitForSelector(allow, { visible: true });
        await page.$eval(allow, (el) => el.scrollIntoView({ block: 'center' }));
        await page.click(allow);
        await page.waitForSelector('#field-allow_discussion .react-select__option');
        await page.evaluate(() => {
          const options = document.querySelectorAll('#field-allow_discussion .react-select__option');
          [...options].find((el) => (el.textContent ?? '').trim() === 'Yes')?.click();
        });
        await waitForText('#field-allow_discussion .react-select__single-value', 'Yes');
        await page.screenshot({ path: join(shots, 'comments-2-allow-discussion.png') });
        const [patched] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/++api++${docPath}`)),
          page.click('#toolbar-save'),
        ]);
        if (patched.status() >= 300) throw new Error(`saving "Allow discussion" answered ${patched.status()}`);
        if (!/"allow_discussion":\s*(true|"True")/.test(patched.request().postData() ?? '')) {
          throw new Error(`the save sent no allow_discussion: ${(patched.request().postData() ?? '').slice(0, 300)}`);
        }
        await page.waitForSelector('#comment-add-id');

        // The colleague comments through the page's form; with moderation on it waits (addendum §8).
        await addColleague();
        await inOwnBrowser(async (theirs) => {
          await login(theirs, COLLEAGUE, COLLEAGUE_PASSWORD);
          await theirs.goto(`${site}${docPath}`, { waitUntil: 'networkidle0' });
          await theirs.waitForSelector('#comment-add-id #field-comment');
          await theirs.type('#comment-add-id #field-comment', COMMENT_TEXT);
          const [posted] = await Promise.all([
            theirs.waitForResponse(
              (r) => r.request().method() === 'POST' && r.url().endsWith(`/++api++${docPath}/@comments`),
            ),
            theirs.click('#comment-add-id button[type="submit"]'),
          ]);
          if (posted.status() >= 300) throw new Error(`posting the comment answered ${posted.status()}`);
          // Its author sees it, as moderators do, while it waits.
          await theirs.waitForFunction(
            (w) => (document.querySelector('#discussion')?.textContent ?? '').includes(w),
            {},
            COMMENT_TEXT,
          );
          await theirs.screenshot({ path: join(shots, 'comments-3-posted-by-colleague.png') });
        });

        /** What anonymous sees of the page's comments, once Volto has listed them. */
        const anonymousComments = (name) =>
          inOwnBrowser(async (anonymous) => {
            const listed = anonymous.waitForResponse(
              (r) => r.request().method() === 'GET' && r.url().endsWith(`/++api++${docPath}/@comments`),
            );
            await anonymous.goto(`${site}${docPath}`, { waitUntil: 'networkidle0' });
            if ((await listed).status() !== 200)
              throw new Error(`@comments answered anonymous ${(await listed).status()}`);
            await anonymous.waitForSelector('.comments #discussion');
            // The comments sit below the page's blocks: the screenshot shows them, not the top of the page again.
            await anonymous.$eval('.comments', (el) => el.scrollIntoView());
            await anonymous.screenshot({ path: join(shots, name) });
            return anonymous.$eval('.comments', (el) => el.textContent ?? '');
          });
        if ((await anonymousComments('comments-4-anonymous-while-pending.png')).includes(COMMENT_TEXT)) {
          throw new Error('anonymous sees the comment before it is approved');
        }

        // Site Setup → Moderate comments lists it (it lists what `@search` finds of `Discussion Item`).
        const searched = page.waitForResponse(
          (r) => r.url().includes('/@search?') && r.url().includes('portal_type=Discussion'),
        );
        await visit('/controlpanel/moderate-comments');
        await waitForText('#page-moderate-comments tbody', COMMENT_TEXT);
        await page.screenshot({ path: join(shots, 'comments-5-moderation-view.png') });
        const held = (await (await searched).json()).items.find((item) => item.text?.data === COMMENT_TEXT);
        if (!held) throw new Error('the moderation view was given no such comment');
        if (held.review_state !== 'pending') throw new Error(`the new comment is ${held.review_state}, not pending`);
        // Volto 18's moderation view offers Edit and Delete only: the approval is the original front end's call,
        // publish at the `@id` that view was given (addendum §8), made as the moderator.
        const commentPath = new URL(held['@id']).pathname.replace(/^\/\+\+api\+\+/, '');
        const approved = await api('POST', `${commentPath}/@workflow/publish`);
        if (approved.status !== 200) throw new Error(`approving answered ${approved.status}`);
        const listedAgain = page.waitForResponse(
          (r) => r.url().includes('/@search?') && r.url().includes('portal_type=Discussion'),
        );
        await visit('/controlpanel/moderate-comments');
        const shown = (await (await listedAgain).json()).items.find((item) => item.text?.data === COMMENT_TEXT);
        if (shown?.review_state !== 'published') throw new Error(`the approved comment is ${shown?.review_state}`);
        await waitForText('#page-moderate-comments tbody', COMMENT_TEXT);

        if (!(await anonymousComments('comments-6-anonymous-after-approval.png')).includes(COMMENT_TEXT)) {
          throw new Error('anonymous does not see the approved comment');
        }
      },
      NEUTRAL,
    ],
  ];
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/**
 * The API calls of one page view (`bench/pageview.mjs` replays them): method and URL path with its query, the
 * page's path as `{document}`; the walk's own readiness polls left out.
 */
function writePageViewLog(file, entries, docPath) {
  const calls = entries
    .filter((e) => e.path !== '/readyz')
    .map((e) => ({ method: e.method, path: e.path.split(docPath).join('/{document}'), status: e.status }));
  writeFileSync(file, JSON.stringify({ recorded: new Date().toISOString(), calls }, null, 2) + '\n');
}

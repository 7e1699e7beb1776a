// The content tree of bench/generate-tree.mjs for any N, written through the store port in minutes (issue 27,
// target 7: a million objects), where generate-tree.mjs POSTs every object through the gateway (a 100,000-object
// tree takes it ~20 min; a million would take hours).
//
// Every stored record is stamped from one the service's own code wrote: the N=1,000 tree is generated first
// through the real write path (generate-tree.mjs, cached), and for each object of planTree(N) the record of a
// template object of the same type and state (a private or a published Folder or Document) is copied with what
// differs between objects replaced: UID, path, id, title, parent, ancestors, position, times. The catalog entry's
// derived members (path_parents, depth, sortable_title, word lists) are made by the search service's own
// functions (services/search/dist/domain). Stamped: content's `content`, `versions` (one per Document) and
// `references` (one per object), and search's `catalog`. Every other collection is copied as it is (the site
// root's records, identity, config), except per-process state (`content_replicas`, `login_attempts`) and content's
// `transactions`, whose records name the template's objects.
//
// `--verify` stamps N=1,000 in memory with the template's own plan and compares every record with the one the
// service wrote for the same path (UIDs mapped, times ignored): it fails on the first member that differs.
//
// Then a suite on the stamped store starts once, so that the services make what they make on start (indexes), and
// it checks every folder's item count against the plan and a search through the gateway; the catalog's Document
// count is checked through the store port.
//
// The finished store is cached under bench/.data/stamped-s<STAMP_VERSION>-<engine>-n<N>/ (store/ holds the
// engine's files, manifest.json what is where); it is built as `<name>.partial` and renamed when whole.
//
//   node bench/stamp-tree.mjs [--engine sqlite|embedded] [--verify] [N ...]     default: sqlite, 1000000
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DATA_ROOT, LISTING_SIZE, dirBytes, ensureTree, itemsTotal, planTree } from './generate-tree.mjs';
import { PG_SUITE_ENV } from './pg-tree.mjs';
import { ADMIN_AUTH, ROOT, copyDir, log as benchLog, pool, request, rssMb, startEmbedded, tempDir } from './lib.mjs';

/** Bump when the way of stamping changes: older caches are then ignored. */
export const STAMP_VERSION = 2;
const TEMPLATE_N = 1000;
export const STAMP_ENGINES = ['sqlite', 'embedded'];
/** Collections written by stamping, not copied. */
const STAMPED = new Set(['content/content', 'content/versions', 'content/references', 'search/catalog']);
/** Per-process state, and records naming the template's objects: not part of a stamped tree. */
const NOT_COPIED = new Set(['content/content_replicas', 'identity/login_attempts', 'content/transactions']);
/** Inserts in flight per collection: enough for SQLite's group commit to share one transaction among many. */
const INSERT_CONCURRENCY = 256;
const STARTUP_TIMEOUT_MS = 30 * 60_000;
const STOP_GRACE_MS = 120_000;

const require = createRequire(import.meta.url);
const dist = (path) => require(join(ROOT, path));

export function stampedDir(n, engine) {
  return join(DATA_ROOT, `stamped-s${STAMP_VERSION}-${engine}-n${n}`);
}

/** The STORE_URL and DATA_DIR a suite serving the store at `storeDir` is started with. */
export function suiteEnvOf(engine, storeDir) {
  // A server engine needs the secrets a production deployment sets, as on PostgreSQL.
  return engine === 'sqlite' ? { STORE_URL: `sqlite://${storeDir}`, ...PG_SUITE_ENV } : { DATA_DIR: storeDir };
}

/** Opens service `service`'s store of `engine` at `storeDir`, as the suite opens it (infrastructure.ts). */
function openServiceStore(engine, storeDir, service) {
  const { openStore } = dist('services/shared/dist/adapters/store/open.js');
  if (engine === 'sqlite') {
    return openStore({
      engine: { engine: 'sqlite', url: `sqlite://${storeDir}` },
      dataDir: storeDir,
      dbName: `cms_${service}`,
    });
  }
  return openStore({ dataDir: join(storeDir, service) });
}

/** A UID for `path` in the tree of N: 32 hex digits, the same on every run. */
function uidOf(n, path) {
  return createHash('sha256').update(`stamp\0${n}\0${path}`).digest('hex').slice(0, 32);
}

/** The template tree's records of the objects stamped from, by kind (`Folder`/`Document` × private/published). */
async function readTemplates(templateDir) {
  const content = await openServiceStore('embedded', templateDir, 'content');
  const search = await openServiceStore('embedded', templateDir, 'search');
  try {
    const docs = await content.collection('content').find({});
    const byPath = new Map(docs.filter((doc) => doc.path).map((doc) => [doc.path, doc]));
    const catalog = new Map((await search.collection('catalog').find({})).map((entry) => [entry._id, entry]));
    const versions = new Map((await content.collection('versions').find({})).map((record) => [record.uid, record]));
    const references = new Map((await content.collection('references').find({})).map((record) => [record._id, record]));
    const recordsOf = (path) => {
      const doc = byPath.get(path);
      if (!doc) throw new Error(`the template tree has no object at ${path}`);
      return { doc, entry: catalog.get(doc._id), version: versions.get(doc._id), reference: references.get(doc._id) };
    };
    const plan = planTree(TEMPLATE_N);
    const published = new Set(plan.paths.published);
    const pick = (type, isPublished) => {
      const all = [...plan.baseLevels.flat(), ...plan.leafDocs];
      const item = all.find((candidate) => candidate.type === type && published.has(candidate.path) === isPublished);
      return recordsOf(item.path);
    };
    return {
      root: recordsOf('/'),
      kinds: {
        'Folder/private': pick('Folder', false),
        'Folder/published': pick('Folder', true),
        'Document/private': pick('Document', false),
        'Document/published': pick('Document', true),
      },
      /** Every record the service wrote, by path, for --verify. */
      byPath: new Map([...byPath.keys()].map((path) => [path, recordsOf(path)])),
    };
  } finally {
    await Promise.allSettled([content.close(), search.close()]);
  }
}

/**
 * The objects of planTree(n) in creation order with what a stamp needs: UID, parent's UID, ancestors' UIDs,
 * position among its siblings, how many children it holds, its creation time.
 */
function objectsOf(n, rootUid, createdAt) {
  const plan = planTree(n);
  const published = new Set(plan.paths.published);
  const items = [...plan.baseLevels.flat(), ...plan.leafDocs];
  const byPath = new Map([['/', { uid: rootUid, ancestors: [], children: 0 }]]);
  const start = Date.parse(createdAt);
  const objects = items.map((item, i) => {
    const parent = byPath.get(item.parent);
    const object = {
      ...item,
      uid: uidOf(n, item.path),
      parentUid: parent.uid,
      ancestors: [...parent.ancestors, parent.uid],
      position: parent.children++,
      children: 0,
      published: published.has(item.path),
      // One millisecond apart in creation order, as a single writer would have made them.
      created: new Date(start + 1000 + i).toISOString(),
    };
    byPath.set(item.path, object);
    return object;
  });
  return { plan, objects, rootChildren: byPath.get('/').children };
}

/** The time of the workflow's publish transition of a published stamp: one second after all were created. */
function publishedAt(objects) {
  return new Date(Date.parse(objects.at(-1)?.created ?? 0) + 1000).toISOString();
}

/** The records of one object, stamped from its kind's template. */
function stampRecords(object, templates, publishTime) {
  const { normalise, words } = dist('services/search/dist/domain/text.js');
  const { pathParents, depthOf } = dist('services/search/dist/domain/catalog-entry.js');
  const template = templates.kinds[`${object.type}/${object.published ? 'published' : 'private'}`];
  const id = object.path.slice(object.path.lastIndexOf('/') + 1);
  const created = object.created;
  const effective = object.published ? publishTime : null;
  const history = template.doc.workflow_history.map((step) => ({
    ...step,
    time: step.action === null ? created : publishTime,
  }));
  const doc = {
    ...template.doc,
    _id: object.uid,
    path: object.path,
    id,
    parent_uid: object.parentUid,
    ancestors: object.ancestors,
    position: object.position,
    next_position: object.type === 'Folder' ? object.children : template.doc.next_position,
    title: object.title,
    created,
    modified: created,
    effective,
    workflow_history: history,
  };
  const entry = {
    ...template.entry,
    _id: object.uid,
    version: doc.version,
    path: object.path,
    path_parents: pathParents(object.path),
    depth: depthOf(object.path),
    id,
    title: object.title,
    sortable_title: normalise(object.title),
    created,
    modified: created,
    effective,
    position: object.position,
    // An object without text or description: its searchable text is its title (checked on the templates).
    words: words(object.title),
    title_words: words(object.title),
    indexed_at: object.published ? publishTime : created,
  };
  const version = template.version && {
    ...template.version,
    _id: `${object.uid}:0`,
    uid: object.uid,
    time: created,
    content: { ...template.version.content, title: object.title },
  };
  const reference = { ...template.reference, _id: object.uid };
  return { doc, entry, version, reference };
}

/** What stamping assumes of the templates, checked: their words are their titles'. */
function checkTemplates(templates) {
  const { words } = dist('services/search/dist/domain/text.js');
  for (const [kind, { doc, entry, reference }] of Object.entries(templates.kinds)) {
    if (!entry || !reference) throw new Error(`template ${kind} (${doc.path}) has no catalog entry or references`);
    if (!isDeepStrictEqual(entry.words, words(doc.title)) || doc.description !== '') {
      throw new Error(`template ${kind} (${doc.path}) has text beyond its title: stamping would index it wrong`);
    }
  }
}

const TIMES = new Set(['created', 'modified', 'effective', 'time', 'indexed_at']);

/** The first member where `stamped` and `written` differ, UIDs mapped and times ignored; undefined when none. */
function firstDifference(stamped, written, uidMap, at = '') {
  const mapped = (value) => (typeof value === 'string' && uidMap.has(value) ? uidMap.get(value) : value);
  if (Array.isArray(stamped) || Array.isArray(written)) {
    if (!Array.isArray(stamped) || !Array.isArray(written) || stamped.length !== written.length) return at;
    for (let i = 0; i < stamped.length; i++) {
      const found = firstDifference(stamped[i], written[i], uidMap, `${at}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (stamped && written && typeof stamped === 'object' && typeof written === 'object') {
    const keys = new Set([...Object.keys(stamped), ...Object.keys(written)]);
    for (const key of keys) {
      if (TIMES.has(key) || (key === '_id' && typeof stamped[key] === 'string' && stamped[key].includes(':'))) continue;
      const found = firstDifference(stamped[key], written[key], uidMap, `${at}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return mapped(stamped) === written ? undefined : at;
}

/**
 * Stamps the template's own plan (N=1,000) and compares each record with the one the service wrote at the same
 * path. Positions are compared as the set each folder holds (the generator POSTs several at once, so the service
 * may have numbered siblings in another order).
 */
export async function verifyStamping(log = benchLog) {
  const tree = await ensureTree(TEMPLATE_N, log);
  const templateDir = copyDir(tree.dataDir, 'bench-stamp-verify-');
  const templates = await readTemplates(templateDir);
  checkTemplates(templates);
  const { objects } = objectsOf(TEMPLATE_N, templates.root.doc._id, templates.root.doc.created);
  const uidMap = new Map(objects.map((object) => [object.uid, templates.byPath.get(object.path).doc._id]));
  const positions = (records) => {
    const byParent = new Map();
    for (const { doc } of records)
      byParent.set(doc.parent_uid, [...(byParent.get(doc.parent_uid) ?? []), doc.position].sort());
    return byParent;
  };
  let compared = 0;
  const stampedRecords = objects.map((object) => [object, stampRecords(object, templates, publishedAt(objects))]);
  for (const [object, stamped] of stampedRecords) {
    const written = templates.byPath.get(object.path);
    for (const part of ['doc', 'entry', 'version', 'reference']) {
      const a = stamped[part] && { ...stamped[part], position: 0 };
      const b = written[part] && { ...written[part], position: 0 };
      const difference = firstDifference(a, b, uidMap);
      if (difference !== undefined) {
        throw new Error(
          `stamped ${part} of ${object.path} differs from the service's at '${difference || '(itself)'}'`,
        );
      }
      if (a) compared += 1;
    }
  }
  const stampedPositions = positions(stampedRecords.map(([, records]) => records));
  const writtenPositions = positions(objects.map((object) => templates.byPath.get(object.path)));
  for (const [parent, list] of stampedPositions) {
    if (!isDeepStrictEqual(list, writtenPositions.get(uidMap.get(parent) ?? parent))) {
      throw new Error(`the positions under ${parent} differ from the service's`);
    }
  }
  log(
    `stamping verified: ${compared} records of ${objects.length} objects equal the service's (UIDs mapped, times ignored)`,
  );
  rmSync(templateDir, { recursive: true, force: true });
}

/** Copies every collection of the template but the stamped and the per-process ones, service by service. */
async function copyUnstamped(templateDir, engine, storeDir) {
  const counts = {};
  for (const { name: service } of readdirSync(templateDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const collections = readdirSync(join(templateDir, service))
      .filter((file) => file.endsWith('.db'))
      .map((file) => file.slice(0, -'.db'.length))
      .filter((name) => !STAMPED.has(`${service}/${name}`) && !NOT_COPIED.has(`${service}/${name}`));
    const source = await openServiceStore('embedded', templateDir, service);
    const target = await openServiceStore(engine, storeDir, service);
    try {
      for (const collection of collections) {
        const docs = await source.collection(collection).find({});
        await pool(docs, INSERT_CONCURRENCY, (doc) => target.collection(collection).insertOne(doc));
        counts[`${service}/${collection}`] = docs.length;
      }
    } finally {
      await Promise.allSettled([source.close(), target.close()]);
    }
  }
  return counts;
}

async function stampInto(n, engine, storeDir, templates, log) {
  const { plan, objects, rootChildren } = objectsOf(n, templates.root.doc._id, templates.root.doc.created);
  const publishTime = publishedAt(objects);
  const content = await openServiceStore(engine, storeDir, 'content');
  const search = await openServiceStore(engine, storeDir, 'search');
  const counts = { 'content/content': 0, 'content/versions': 0, 'content/references': 0, 'search/catalog': 0 };
  try {
    const root = templates.root;
    await content.collection('content').insertOne({ ...root.doc, next_position: rootChildren });
    await content.collection('references').insertOne(root.reference);
    await search.collection('catalog').insertOne(root.entry);
    counts['content/content'] += 1;
    counts['content/references'] += 1;
    counts['search/catalog'] += 1;
    const collections = {
      doc: content.collection('content'),
      version: content.collection('versions'),
      reference: content.collection('references'),
      entry: search.collection('catalog'),
    };
    const names = {
      doc: 'content/content',
      version: 'content/versions',
      reference: 'content/references',
      entry: 'search/catalog',
    };
    let done = 0;
    let lastReport = Date.now();
    await pool(
      objects,
      INSERT_CONCURRENCY,
      async (object) => {
        const records = stampRecords(object, templates, publishTime);
        await Promise.all(
          Object.entries(records)
            .filter(([, record]) => record)
            .map(async ([part, record]) => {
              await collections[part].insertOne(record);
              counts[names[part]] += 1;
            }),
        );
      },
      () => {
        done += 1;
        if (Date.now() - lastReport > 30_000) {
          lastReport = Date.now();
          log(`  stamped ${done} of ${objects.length} objects`);
        }
      },
    );
  } finally {
    await Promise.allSettled([content.close(), search.close()]);
  }
  return { plan, counts };
}

/** Every folder's item count and the catalog's Document count, through a suite on the stamped store. */
async function verifyThroughSuite(baseUrl, plan) {
  const wrong = [];
  await pool(Object.entries(plan.expectedItems), 4, async ([path, expected]) => {
    const total = await itemsTotal(baseUrl, path);
    if (total !== expected) wrong.push(`${path} holds ${total}, expected ${expected}`);
  });
  if (wrong.length > 0) throw new Error(`the stamped tree is wrong: ${wrong.slice(0, 10).join('; ')}`);
  // A search through the suite: the listing's Documents are the tree's only titles with "Item".
  const response = await request(`${baseUrl}/@search?SearchableText=item&b_size=1`, {
    headers: { Authorization: ADMIN_AUTH, Accept: 'application/json' },
  });
  const found = response.status === 200 ? JSON.parse(response.bytes.toString('utf8')).items_total : undefined;
  if (found !== LISTING_SIZE) {
    throw new Error(`@search?SearchableText=item on the stamped tree: ${response.status}, ${found} of ${LISTING_SIZE}`);
  }
}

/**
 * The catalog's Documents counted through the store port (at a million objects a search of them all takes longer
 * than the gateway's deadline).
 */
async function verifyCatalog(engine, storeDir, plan) {
  const search = await openServiceStore(engine, storeDir, 'search');
  try {
    const found = await search.collection('catalog').countDocuments({ portal_type: 'Document' });
    if (found !== plan.counts.documents) {
      throw new Error(`the stamped catalog holds ${found} Documents of ${plan.counts.documents}`);
    }
  } finally {
    await search.close();
  }
}

/** The cached stamped tree of N on `engine`, made first when missing: `{ dir, storeDir, manifest }`. */
export async function ensureStampedTree(n, engine = 'sqlite', log = benchLog) {
  if (!STAMP_ENGINES.includes(engine)) throw new Error(`stamp-tree: engine must be one of ${STAMP_ENGINES.join(', ')}`);
  const dir = stampedDir(n, engine);
  const manifestFile = join(dir, 'manifest.json');
  if (process.env.BENCH_REGENERATE !== '1' && existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    log(
      `stamped tree N=${n} on ${engine}: cached ${relative(ROOT, dir)} (${manifest.counts.total} objects, stamped ${manifest.stamped_at})`,
    );
    return { dir, storeDir: join(dir, 'store'), manifest };
  }
  const partial = `${dir}.partial`;
  const storeDir = join(partial, 'store');
  // What a run wrote before it failed (while making indexes or checking): the stamped records do not change with
  // the store's code, so a later run starts from them.
  const writtenFile = join(partial, 'written.json');
  let written = existsSync(writtenFile) ? JSON.parse(readFileSync(writtenFile, 'utf8')) : undefined;
  if (process.env.BENCH_REGENERATE === '1' || written?.stamp_version !== STAMP_VERSION) written = undefined;
  const tree = await ensureTree(TEMPLATE_N, log);
  const seconds = {};
  let started = Date.now();
  if (written) {
    log(`stamped tree N=${n} on ${engine}: records written by an earlier run in ${written.seconds_stamp} s, kept`);
  } else {
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(storeDir, { recursive: true });
    const templateDir = copyDir(tree.dataDir, 'bench-stamp-template-');
    const templates = await readTemplates(templateDir);
    checkTemplates(templates);
    const copied = await copyUnstamped(templateDir, engine, storeDir);
    const { counts } = await stampInto(n, engine, storeDir, templates, log);
    rmSync(templateDir, { recursive: true, force: true });
    written = {
      stamp_version: STAMP_VERSION,
      records: { ...copied, ...counts },
      seconds_stamp: Number(((Date.now() - started) / 1000).toFixed(1)),
    };
    writeFileSync(writtenFile, `${JSON.stringify(written, null, 2)}\n`);
    log(`stamped tree N=${n} on ${engine}: ${planTree(n).counts.total} objects written in ${written.seconds_stamp} s`);
  }
  seconds.stamp = written.seconds_stamp;
  const plan = planTree(n);

  started = Date.now();
  const server = await startEmbedded(`stamped N=${n}`, {
    dataDir: engine === 'sqlite' ? tempDir('bench-stamp-run-') : storeDir,
    workers: 0,
    readyTimeoutMs: STARTUP_TIMEOUT_MS,
    env: suiteEnvOf(engine, storeDir),
  });
  seconds.first_start = (Date.now() - started) / 1000;
  started = Date.now();
  const wrong = await verifyThroughSuite(server.baseUrl, plan).then(
    () => undefined,
    (error) => error,
  );
  seconds.verify = (Date.now() - started) / 1000;
  const exit = await server.stop(STOP_GRACE_MS);
  if (wrong) throw wrong;
  if (exit.code !== 0) throw new Error(`the suite on the stamped tree did not stop cleanly (${JSON.stringify(exit)})`);
  await verifyCatalog(engine, storeDir, plan);
  log(
    `stamped tree N=${n} on ${engine}: first start (the services' indexes) ${seconds.first_start.toFixed(1)} s, ` +
      `every folder and the catalog checked in ${seconds.verify.toFixed(1)} s`,
  );
  const manifest = {
    stamp_version: STAMP_VERSION,
    engine,
    n,
    counts: plan.counts,
    branching: plan.branching,
    paths: plan.paths,
    records: written.records,
    template: { n: TEMPLATE_N, generated_at: tree.manifest.generated_at, git_commit: tree.manifest.git_commit },
    stamped_at: new Date().toISOString(),
    seconds,
    store_bytes: dirBytes(storeDir),
  };
  writeFileSync(join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(writtenFile);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return { dir, storeDir: join(dir, 'store'), manifest };
}

/**
 * The embedded suite (GATEWAY_WORKERS=0) on a copy of the stamped tree of N on `engine` (the cache is never served):
 * `{ n, server, startup, rssAtStart, manifest }`, start-up from spawn to ready.
 */
export async function startStampedTree(n, engine, { nodeArgs, env } = {}) {
  const stamped = await ensureStampedTree(n, engine, benchLog);
  const copyStarted = Date.now();
  const storeDir = tempDir(`bench-stamped-${n}-`);
  cpSync(stamped.storeDir, storeDir, { recursive: true });
  const copySeconds = (Date.now() - copyStarted) / 1000;
  const started = Date.now();
  const server = await startEmbedded(`stamped N=${n}`, {
    dataDir: engine === 'sqlite' ? tempDir('bench-stamped-run-') : storeDir,
    workers: 0,
    readyTimeoutMs: STARTUP_TIMEOUT_MS,
    nodeArgs,
    env: { ...suiteEnvOf(engine, storeDir), ...env },
  });
  const startup = (Date.now() - started) / 1000;
  const rss = rssMb(server.pid);
  benchLog(
    `stamped tree N=${n} on ${engine}: ${stamped.manifest.counts.total} objects, store ` +
      `${(stamped.manifest.store_bytes / 1e6).toFixed(0)} MB (copied in ${copySeconds.toFixed(1)} s); suite ready in ` +
      `${startup.toFixed(2)} s, ${rss.toFixed(0)} MB resident`,
  );
  return { n, server, startup, rssAtStart: rss, manifest: stamped.manifest };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  let engine = 'sqlite';
  let verify = false;
  const sizes = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--engine') engine = args[++i];
    else if (args[i] === '--verify') verify = true;
    else sizes.push(Number(args[i]));
  }
  let exitCode = 0;
  try {
    if (verify) await verifyStamping();
    for (const n of sizes.length > 0 || verify ? sizes : [1_000_000]) {
      if (!Number.isInteger(n) || n < 1)
        throw new Error('usage: stamp-tree.mjs [--engine sqlite|embedded] [--verify] [N ...]');
      await ensureStampedTree(n, engine);
    }
  } catch (error) {
    exitCode = 1;
    process.stderr.write(`stamp-tree failed: ${error.stack ?? error}\n`);
  }
  process.exit(exitCode);
}

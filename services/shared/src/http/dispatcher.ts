/**
 * The `Handle` RPC of a service: dispatches one parsed HTTP request to the endpoint declared for it and
 * enforces the declaration before the handler runs — method (405), sub-path (404), context rule and existence
 * (404), View and the declared permission on the context (401/403), then the sub-path parameters, query and
 * body schemas (400). The handler gets the proofs of the permissions checked (`call.granted`, `call.proof`), which
 * the domain takes instead of checking them again.
 */
import { setImmediate } from 'node:timers/promises';
import type * as grpc from '@grpc/grpc-js';
import { z } from 'zod';
import {
  AppError,
  badRequest,
  clip,
  methodNotAllowed,
  notFound,
  unauthorized,
  type FieldError,
} from '../errors/app-error';
import type { HttpRequest__Output } from '../generated/cms/common/v1/HttpRequest';
import type { HttpResponse } from '../generated/cms/common/v1/HttpResponse';
import { unary } from '../grpc/server';
import { neutralName, toNeutralIdentifiers, toOriginalIdentifiers } from '../identifiers/original-identifiers';
import type { Logger } from '../logging/logger';
import { grant, type Granted } from '../permissions/granted';
import { requirePermission } from '../permissions/local-roles';
import { BASIC_CHALLENGE, type Permission } from '../permissions/model';
import type { ContextResolver } from './context';
import {
  EndpointCall,
  type Access,
  HTTP_METHODS,
  type AnyOperation,
  type EndpointDeclaration,
  type HttpMethod,
  type HttpResult,
  type IdentifierRules,
  type ServiceName,
  sameFacts,
} from './endpoint';
import { queryInput } from './params';
import { QueryParams } from './query';
import { redirectOfMoved } from './moved';
import { isMultipart, readUpload } from './upload';

const EMPTY = Buffer.alloc(0);

export interface DispatcherOptions<Context, Deps> {
  service: ServiceName;
  endpoints: readonly EndpointDeclaration<Context, Deps>[];
  deps: Deps;
  /** Resolves context paths; used for every request, so it should be cheap for the site root. */
  contexts: ContextResolver<Context>;
  logger: Logger;
  /**
   * Which identifiers responses use: the neutral ones of the specification (default), or the original platform's
   * (`ORIGINAL_IDENTIFIERS`). The original names are taken on input either way.
   */
  identifiers?: 'neutral' | 'original';
}

interface CompiledOperation {
  operation: AnyOperation;
  patterns: string[][];
}

export interface CompiledEndpoint {
  /** Its first part: the facts besides the operations, which every part shares (`sameFacts`). */
  declaration: EndpointDeclaration<unknown, unknown>;
  /** Each method's operations, one per part that declares it. */
  operations: Partial<Record<HttpMethod, CompiledOperation[]>>;
  allowed: HttpMethod[];
}

export function serveEndpoints<Context, Deps>(
  options: DispatcherOptions<Context, Deps>,
): grpc.handleUnaryCall<HttpRequest__Output, HttpResponse> {
  const endpoints = compile(options.service, options.endpoints as readonly EndpointDeclaration<unknown, unknown>[]);
  const { contexts, logger } = options;
  const deps = depsOfOperations(options.endpoints, options.deps);
  const original = options.identifiers === 'original';
  return unary(logger, async (sent: HttpRequest__Output, rpc) => {
    const identifiers = endpoints.get(sent.endpoint)?.declaration.identifiers ?? {};
    const request = withNeutralNames(sent, identifiers);
    const requestId = request.request_id || rpc.requestId;
    const result = await dispatch(endpoints, request, requestId, contexts, deps, logger).catch((error: unknown) =>
      refusedWithNull(endpoints.get(request.endpoint), request, error),
    );
    const typeSchema = identifiers.typeSchemaAnswer === true && request.sub_path.length === 1;
    const body =
      original && result.body !== undefined
        ? toOriginalIdentifiers(result.body, request.public_url, { typeSchema })
        : result.body;
    return {
      status: result.status,
      headers: result.headers ?? {},
      body: result.raw ?? (body === undefined ? EMPTY : Buffer.from(JSON.stringify(body))),
    };
  });
}

/**
 * The original identifiers a request may use as aliases (addendum §8), in the sub-path (where the declaration says it
 * names something) and the query's types.
 */
function withNeutralNames(request: HttpRequest__Output, identifiers: IdentifierRules): HttpRequest__Output {
  const named = identifiers.namedSubPath === true;
  const typed = request.query.some((p) => p.key.startsWith('portal_type'));
  if (!named && !typed) return request;
  return {
    ...request,
    sub_path: named ? request.sub_path.map(neutralName) : request.sub_path,
    query: typed
      ? request.query.map((p) => (p.key.startsWith('portal_type') ? { ...p, value: neutralName(p.value) } : p))
      : request.query,
  };
}

/** A body's original identifiers as the neutral ones; of a content body (the user's members) only its `@type`. */
function neutralBody(identifiers: IdentifierRules, body: unknown): unknown {
  if (identifiers.contentBody !== true) return toNeutralIdentifiers(body);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const type = (body as Record<string, unknown>)['@type'];
  return typeof type === 'string' ? { ...body, '@type': neutralName(type) } : body;
}

/**
 * What each operation is handed: the collaborators its declaration `uses`, picked once, or all of them. Throws at
 * start-up when a declaration names one the service does not have.
 */
function depsOfOperations<Context, Deps>(
  declarations: readonly EndpointDeclaration<Context, Deps>[],
  deps: Deps,
): Map<AnyOperation, unknown> {
  const depsOf = new Map<AnyOperation, unknown>();
  for (const declaration of declarations) {
    const { uses } = declaration;
    const missing = uses?.find((name) => !(name in (deps as object)));
    if (missing)
      throw new Error(`@${declaration.name} uses "${missing}", which the ${declaration.service} service lacks`);
    const handed = uses
      ? Object.fromEntries(uses.map((name) => [name, (deps as Record<string, unknown>)[name]]))
      : deps;
    for (const operation of Object.values(declaration.operations)) {
      if (!operation) continue;
      // One operation object in two declarations would get the collaborators of the last one only.
      const earlier = depsOf.get(operation);
      if (earlier !== undefined && earlier !== handed)
        throw new Error(`@${declaration.name} shares an operation object with another declaration: give it its own`);
      depsOf.set(operation, handed);
    }
  }
  return depsOf;
}

async function dispatch<Context>(
  endpoints: Map<string, CompiledEndpoint>,
  request: HttpRequest__Output,
  requestId: string,
  contexts: ContextResolver<Context>,
  depsOf: Map<AnyOperation, unknown>,
  logger: Logger,
): Promise<HttpResult> {
  const endpoint = endpoints.get(request.endpoint);
  if (!endpoint) throw notFound(`No such endpoint: @${clip(request.endpoint)}`);
  let checked: DeclaredCall<Context>;
  try {
    checked = await checkDeclared(endpoint, request, requestId, contexts);
  } catch (error) {
    const rest = [`@${request.endpoint}`, ...request.sub_path];
    const moved = redirectOfMoved(error, {
      method: request.method,
      publicUrl: request.public_url,
      rest: request.endpoint ? rest : [],
      query: request.query,
    });
    if (moved) return moved;
    throw error;
  }
  const { operation, context, captured } = checked;
  const deps = depsOf.get(operation);
  const granted = [...checked.granted];
  let proof = checked.proof;

  const queryParams = new QueryParams(request.query);
  const params = operation.params ? validate(operation.params, captured, 'path') : captured;
  const early = new EndpointCall(request, requestId, logger, context, params, undefined, undefined, queryParams);
  if (operation.guard) await operation.guard(early, deps);
  const access = operation.permission;
  if (typeof access === 'object' && 'permissionOf' in access) {
    proof = checked.prove(await access.permissionOf(early, deps));
    granted.push(proof);
  }
  const query = operation.query ? validate(operation.query, queryInput(queryParams), 'query') : undefined;
  const contentType = request.headers['content-type'];
  const upload =
    operation.upload && isMultipart(contentType)
      ? await readUpload(request.body, contentType, operation.upload)
      : undefined;
  let parsed: unknown;
  if (operation.body && !upload) {
    parsed = jsonBody(request.body);
    // Parsing a large body held the loop for up to ~100 ms: requests that came meanwhile go first.
    if (request.body.length >= LARGE_BODY_BYTES) await setImmediate();
  }
  const body =
    operation.body && !upload
      ? validate(operation.body, neutralBody(endpoint.declaration.identifiers ?? {}, parsed), 'body')
      : undefined;
  const call = new EndpointCall(
    request,
    requestId,
    logger,
    context,
    params,
    query,
    body,
    queryParams,
    upload,
    granted,
    proof,
  );
  return operation.handle(call, deps);
}

/** Spec, authentication rule 4: where an endpoint says so, a refusal is 401 with the body `null`. */
function refusedWithNull(
  endpoint: CompiledEndpoint | undefined,
  request: HttpRequest__Output,
  error: unknown,
): HttpResult {
  const refused = error instanceof AppError && (error.type === 'Unauthorized' || error.type === 'Forbidden');
  if (!refused || endpoint?.declaration.denial !== 'null') throw error;
  return { status: 401, body: null, headers: request.principal ? {} : { ...BASIC_CHALLENGE } };
}

/** What a request to a declared endpoint has, once its declaration's checks have passed. */
export interface DeclaredCall<Context> {
  operation: AnyOperation;
  context: Context;
  /** The named segments of the sub-path, not yet validated. */
  captured: Record<string, string>;
  /** The proofs of View and of the operation's declared permissions on the context. */
  granted: readonly Granted[];
  /** The proof of the operation's own declared permission (View's when it declares none). */
  proof: Granted;
  /** Checks one more permission on the context (one that depends on the request) and answers its proof. */
  prove(permission: Permission): Granted;
}

/** The parts of a request the declaration's checks read. */
export type DeclaredRequest = Pick<
  HttpRequest__Output,
  'method' | 'context_path' | 'endpoint' | 'sub_path' | 'principal' | 'public_url'
>;

/**
 * The checks of a declaration that come before its handler: method (405), sub-path (404), context rule and
 * existence (404; a moved context's NotFound is for the caller to answer as its redirect), View and the declared
 * permission (401/403). This dispatcher runs them for every request, and content's file hop for those it serves.
 */
export async function checkDeclared<Context>(
  endpoint: CompiledEndpoint,
  request: DeclaredRequest,
  requestId: string,
  contexts: ContextResolver<Context>,
): Promise<DeclaredCall<Context>> {
  const method = request.method as HttpMethod;
  const candidates = endpoint.operations[method];
  if (!candidates) throw methodNotAllowed(clip(request.method), endpoint.allowed);
  const matched = matchOperation(candidates, request.sub_path);
  if (!matched) throw notFound(`Resource not found: ${clip(describe(request))}`);
  const { compiled, captured } = matched;

  const path = '/' + request.context_path.join('/');
  if (endpoint.declaration.context === 'site-root' && request.context_path.length > 0) {
    throw notFound(`Resource not found: @${request.endpoint} exists at the site root only, not at ${clip(path)}`);
  }
  const { context, scope } = await contexts.resolve(path, requestId, request.public_url);
  const { operation } = compiled;
  const prove = (permission: Permission): Granted => {
    requirePermission(request.principal, permission, scope);
    return grant(permission, path, request.principal?.id ?? null);
  };
  const granted = [prove('View')];
  let proof = granted[0];
  const access = operation.permission;
  if (typeof access === 'string') {
    if (access !== 'View') granted.push((proof = prove(access)));
  } else if ('authenticated' in access && !request.principal) {
    throw unauthorized('Authentication required', BASIC_CHALLENGE);
  }
  for (const permission of operation.alsoRequires ?? []) granted.push(prove(permission));
  return { operation, context, captured, granted, proof, prove };
}

/** Why an operation's access cannot work as declared (a guard named but none given), or null. */
function accessProblem(operation: AnyOperation): string | null {
  const access = operation.permission as Permission | Access | null | undefined;
  if (access === null || access === undefined) return 'declares no permission and no reason why none';
  if (typeof access === 'object' && 'guard' in access && !operation.guard) return 'names a guard but has none';
  return null;
}

/**
 * The operation of the part whose pattern matches the sub-path with the most literal segments (`content-rules`
 * before `:id`), the first part on a tie, with the segments its parameters capture.
 */
function matchOperation(
  candidates: readonly CompiledOperation[],
  segments: readonly string[],
): { compiled: CompiledOperation; captured: Record<string, string> } | null {
  let best: { compiled: CompiledOperation; captured: Record<string, string>; literals: number } | null = null;
  for (const compiled of candidates) {
    for (const pattern of compiled.patterns) {
      const captured = matchSubPath([pattern], segments);
      const literals = pattern.filter((segment) => !segment.startsWith(':')).length;
      if (captured && (!best || literals > best.literals)) best = { compiled, captured, literals };
    }
  }
  return best;
}

/** One endpoint, declared in one part or several of one name, prepared for `checkDeclared` (its sub-paths split). */
export function compileEndpoint(...parts: EndpointDeclaration<unknown, unknown>[]): CompiledEndpoint {
  const [declaration, ...rest] = parts;
  if (!declaration) throw new Error('an endpoint needs a declaration');
  const differing = rest.find((part) => part.name !== declaration.name || !sameFacts(declaration, part));
  if (differing) throw new Error(`the parts of @${declaration.name} disagree on a fact besides their operations`);
  const operations: CompiledEndpoint['operations'] = {};
  for (const part of parts) {
    for (const method of HTTP_METHODS) {
      const operation = part.operations[method];
      if (!operation) continue;
      const problem = accessProblem(operation);
      if (problem) throw new Error(`${method} @${part.name} ${problem}`);
      const patterns = (operation.paths ?? ['']).map((p) => p.split('/').filter(Boolean));
      operations[method] = [...(operations[method] ?? []), { operation, patterns }];
    }
  }
  return { declaration, operations, allowed: HTTP_METHODS.filter((m) => operations[m]) };
}

function compile(
  service: ServiceName,
  declarations: readonly EndpointDeclaration<unknown, unknown>[],
): Map<string, CompiledEndpoint> {
  const parts = new Map<string, EndpointDeclaration<unknown, unknown>[]>();
  for (const declaration of declarations) {
    if (declaration.service !== service) {
      throw new Error(`${service}: endpoint @${declaration.name} is declared for ${declaration.service}`);
    }
    const earlier = parts.get(declaration.name) ?? [];
    if (earlier.includes(declaration)) throw new Error(`${service}: endpoint @${declaration.name} declared twice`);
    parts.set(declaration.name, [...earlier, declaration]);
  }
  return new Map([...parts].map(([name, declared]) => [name, compileEndpoint(...declared)]));
}

/** The named segments of the first pattern the sub-path matches, or null when none does. */
export function matchSubPath(patterns: string[][], segments: readonly string[]): Record<string, string> | null {
  for (const pattern of patterns) {
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = Object.create(null);
    let matched = true;
    for (let i = 0; i < pattern.length; i++) {
      if (pattern[i].startsWith(':')) params[pattern[i].slice(1)] = segments[i];
      else if (pattern[i] !== segments[i]) {
        matched = false;
        break;
      }
    }
    if (matched) return params;
  }
  return null;
}

/**
 * Deepest nesting of arrays and objects a JSON body may have; deeper is 400. What is stored is copied and
 * serialised recursively (the embedded store's deep copy overflowed the stack on a query criterion 20,000 deep).
 */
export const MAX_JSON_DEPTH = 100;

/** A body whose handling is split into event-loop turns (a 2.7 MB page parsed in ~100 ms on a loaded machine). */
const LARGE_BODY_BYTES = 256 * 1024;

/** The JSON body; an empty body is `{}` (addendum §7). Parsed here only: the gateway passes the bytes on. */
function jsonBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw badRequest(`Malformed JSON body: ${clip((error as Error).message)}`);
  }
  const problem = textShapeProblem(body, MAX_JSON_DEPTH) ?? (mayNameProto(body) ? shapeProblem(value) : null);
  if (problem) throw badRequest(problem);
  return value;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The nesting of a body JSON.parse took, measured on its bytes: one pass without allocation (a walk of the
 * parsed value cost ~100 ms at 300,000 members). Brackets inside strings do not count.
 */
function textShapeProblem(body: Buffer, limit: number): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return `JSON body nested deeper than ${limit} levels`;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
  }
  return null;
}

/** Whether a member may be named `__proto__`: only if those bytes, or an escape that could spell them, are there. */
function mayNameProto(body: Buffer): boolean {
  return body.includes('__proto__') || body.includes('\\u');
}

/**
 * Why a parsed body is refused: a `__proto__` member anywhere (an assignment of it would set an object's
 * prototype). Walked without recursion (its depth is already bounded by `textShapeProblem`).
 */
function shapeProblem(value: unknown): string | null {
  // No array per object or pair per child: this walk is only for bodies that may name `__proto__`.
  const nodes: object[] = [];
  if (value !== null && typeof value === 'object') nodes.push(value);
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    if (Array.isArray(node)) {
      for (const child of node as unknown[]) if (child !== null && typeof child === 'object') nodes.push(child);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) {
      return 'JSON body has a member named "__proto__", which no field has';
    }
    // JSON.parse makes plain objects: every enumerable member is an own one.
    for (const key in node) {
      const child = node[key];
      if (child !== null && typeof child === 'object') nodes.push(child);
    }
  }
  return null;
}

function validate<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, input: unknown, where: string): T {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** 400 with one entry per problem; field names and messages are bounded (they may come from the request). */
export function validationError(error: z.ZodError, where = 'body'): AppError {
  const errors: FieldError[] = error.issues.slice(0, 50).map((issue) => ({
    field: clip(issue.path.join('.')) || `(${where})`,
    message: clip(issue.message),
  }));
  const more = error.issues.length > errors.length ? ` (and ${error.issues.length - errors.length} more)` : '';
  return badRequest(
    `Invalid request: ${clip(errors.map((e) => `${e.field}: ${e.message}`).join('; '), 1000)}${more}`,
    errors,
  );
}

function describe(request: DeclaredRequest): string {
  return ['', ...request.context_path, `@${request.endpoint}`, ...request.sub_path].join('/');
}

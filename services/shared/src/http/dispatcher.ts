/**
 * The `Handle` RPC of a service: dispatches one parsed HTTP request to the endpoint declared for it and
 * enforces the declaration before the handler runs — method (405), sub-path (404), context rule and existence
 * (404), View and the declared permission on the context (401/403), then the sub-path parameters, query and
 * body schemas (400). The handler gets the proofs of the permissions checked (`call.granted`, `call.proof`), which
 * the domain takes instead of checking them again.
 */
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
  type ServiceName,
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
  declaration: EndpointDeclaration<unknown, unknown>;
  operations: Partial<Record<HttpMethod, CompiledOperation>>;
  allowed: HttpMethod[];
}

export function serveEndpoints<Context, Deps>(
  options: DispatcherOptions<Context, Deps>,
): grpc.handleUnaryCall<HttpRequest__Output, HttpResponse> {
  const endpoints = compile(options.service, options.endpoints as readonly EndpointDeclaration<unknown, unknown>[]);
  const { deps, contexts, logger } = options;
  const original = options.identifiers === 'original';
  return unary(logger, async (sent: HttpRequest__Output, rpc) => {
    const request = withNeutralNames(sent);
    const requestId = request.request_id || rpc.requestId;
    const result = await dispatch(endpoints, request, requestId, contexts, deps, logger).catch((error: unknown) =>
      refusedWithNull(endpoints.get(request.endpoint), request, error),
    );
    const typeSchema = request.endpoint === 'types' && request.sub_path.length === 1;
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

/** Endpoints whose sub-path names an identifier (a vocabulary, a type, a panel, a record). */
const NAMED_SUB_PATHS = new Set(['vocabularies', 'types', 'controlpanels', 'registry', 'querysources', 'sources']);

/** The original identifiers a request may use as aliases (addendum §8), in the sub-path and the query's types. */
function withNeutralNames(request: HttpRequest__Output): HttpRequest__Output {
  const named = NAMED_SUB_PATHS.has(request.endpoint);
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
function neutralBody(endpoint: string, body: unknown): unknown {
  if (endpoint !== '') return toNeutralIdentifiers(body);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const type = (body as Record<string, unknown>)['@type'];
  return typeof type === 'string' ? { ...body, '@type': neutralName(type) } : body;
}

async function dispatch<Context, Deps>(
  endpoints: Map<string, CompiledEndpoint>,
  request: HttpRequest__Output,
  requestId: string,
  contexts: ContextResolver<Context>,
  deps: Deps,
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
  const body =
    operation.body && !upload
      ? validate(operation.body, neutralBody(request.endpoint, jsonBody(request.body)), 'body')
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
  const compiled = endpoint.operations[method];
  if (!compiled) throw methodNotAllowed(clip(request.method), endpoint.allowed);
  const captured = matchSubPath(compiled.patterns, request.sub_path);
  if (!captured) throw notFound(`Resource not found: ${clip(describe(request))}`);

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

/** One declaration prepared for `checkDeclared` (its sub-path patterns split). */
export function compileEndpoint(declaration: EndpointDeclaration<unknown, unknown>): CompiledEndpoint {
  const operations: CompiledEndpoint['operations'] = {};
  for (const method of HTTP_METHODS) {
    const operation = declaration.operations[method];
    if (!operation) continue;
    const problem = accessProblem(operation);
    if (problem) throw new Error(`${method} @${declaration.name} ${problem}`);
    const patterns = (operation.paths ?? ['']).map((p) => p.split('/').filter(Boolean));
    operations[method] = { operation, patterns };
  }
  return { declaration, operations, allowed: HTTP_METHODS.filter((m) => operations[m]) };
}

function compile(
  service: ServiceName,
  declarations: readonly EndpointDeclaration<unknown, unknown>[],
): Map<string, CompiledEndpoint> {
  const endpoints = new Map<string, CompiledEndpoint>();
  for (const declaration of declarations) {
    if (declaration.service !== service) {
      throw new Error(`${service}: endpoint @${declaration.name} is declared for ${declaration.service}`);
    }
    if (endpoints.has(declaration.name)) throw new Error(`${service}: endpoint @${declaration.name} declared twice`);
    endpoints.set(declaration.name, compileEndpoint(declaration));
  }
  return endpoints;
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

/** The JSON body; an empty body is `{}` (addendum §7). Parsed here only: the gateway passes the bytes on. */
function jsonBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw badRequest(`Malformed JSON body: ${clip((error as Error).message)}`);
  }
  const problem = shapeProblem(value, MAX_JSON_DEPTH);
  if (problem) throw badRequest(problem);
  return value;
}

/**
 * Why a parsed body is refused: arrays and objects nested deeper than `limit`, or a `__proto__` member anywhere
 * (an assignment of it would set an object's prototype). Walked without recursion, so any depth can be measured.
 */
function shapeProblem(value: unknown, limit: number): string | null {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return `JSON body nested deeper than ${limit} levels`;
    if (!Array.isArray(node) && Object.prototype.hasOwnProperty.call(node, '__proto__')) {
      return 'JSON body has a member named "__proto__", which no field has';
    }
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
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

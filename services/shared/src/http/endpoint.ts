/**
 * How an endpoint is declared: one file per `@` endpoint (`api/workflow.ts` for `@workflow`) exports one
 * declaration naming its methods, the sub-paths each takes, the permission each requires on the context, the
 * contexts it accepts, zod schemas for its sub-path parameters, query and body, how its answers are cached and
 * whether its bytes stream over the file hop, beside the handler.
 *
 * Everything else is derived from the declarations: the gateway's routing table (scripts/routes-gen.mjs), the
 * 404 for a missing context, the permission check and the validation (dispatcher.ts), so no handler repeats them.
 */
import type { z } from 'zod';
import type { HttpRequest__Output } from '../generated/cms/common/v1/HttpRequest';
import type { Principal__Output } from '../generated/cms/common/v1/Principal';
import { translatorForRequest, type Translator } from '../i18n/messages';
import type { Logger } from '../logging/logger';
import type { Granted } from '../permissions/granted';
import type { Permission } from '../permissions/model';
import { QueryParams } from './query';
import { accepts, type Upload, type UploadRule } from './upload';

export type ServiceName = 'content' | 'identity' | 'search' | 'discussion' | 'config';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** The contexts an endpoint answers on: any content object (the site root included), or the site root only. */
export type ContextRule = 'content' | 'site-root';

/**
 * What the gateway does with the caller's credentials: verify them (the default), ignore them (`@login`: a
 * stale token must not block a new login, addendum §7), or verify them and pass the header on (`@logout`
 * revokes the token it carries).
 */
export type AuthMode = 'verify' | 'ignore' | 'forward';

/**
 * What a GET's answer is, for its Cache-Control: the caching settings (`cms.caching_<kind>_*`) give each kind its
 * times; `other` is revalidated every time.
 */
export type AnswerKind = 'content' | 'listing' | 'site' | 'file' | 'other';

/**
 * What a change invalidates of an answer the gateway keeps in its own cache (gateway/src/http-cache.ts): the
 * answer of one object (`object`), or of a tree of them (`tree`).
 */
export type CacheScope = 'object' | 'tree';

/**
 * How an endpoint's bytes travel over the file hop (file-hop.ts) instead of inside gRPC messages: `download`, its
 * GET (and HEAD) streams a file out; `upload`, a resumable upload's `OPTIONS`, `HEAD` and `PATCH` stream its body
 * in (its bodiless `POST` goes over gRPC); `site-zip`, every method, the whole site's ZIP out or in.
 */
export type FileHop = 'download' | 'upload' | 'site-zip';

/** The endpoint's identifiers that differ from the rule of addendum §8 (original identifiers taken as aliases). */
export interface IdentifierRules {
  /** The sub-path names something (a type, a vocabulary, a panel, a record): an original name is taken for it. */
  namedSubPath?: boolean;
  /** An answer at a one-segment sub-path is a type's schema (`@types/<type>`), whose `title` is the type's name. */
  typeSchemaAnswer?: boolean;
  /** The body is a content object's, whose members are the user's: only its `@type` is taken by its original name. */
  contentBody?: boolean;
}

/** What a handler answers; the dispatcher turns it into the HTTP response the gateway sends. */
export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Body bytes sent as they are (e.g. an image), instead of `body` as JSON; set `Content-Type` with it. */
  raw?: Buffer;
}

/** One HTTP request as a handler sees it, after the dispatcher has resolved and checked it. */
export class EndpointCall<Context = unknown, Params = Record<string, string>, Query = unknown, Body = unknown> {
  private negotiated?: Translator;

  constructor(
    readonly request: HttpRequest__Output,
    readonly requestId: string,
    private readonly logger: Logger,
    /** The object the request addresses, as the service's context resolver loaded it. */
    readonly context: Context,
    /** The named segments of the sub-path (`:transition` → `params.transition`), validated. */
    readonly params: Params,
    /** The query, validated by the operation's schema (undefined without one). */
    readonly query: Query,
    /** The JSON body, validated by the operation's schema (undefined without one). */
    readonly body: Body,
    /** Every query parameter as sent, for endpoints whose parameters are open-ended (catalog indexes). */
    readonly queryParams: QueryParams,
    /** The file of a `multipart/form-data` request to an operation that declares `upload` (then `body` is unset). */
    readonly upload?: Upload,
    /** The dispatcher's proofs of the permissions it checked on the context (View, the declared ones). */
    readonly granted: readonly Granted[] = [],
    /**
     * The proof of the operation's own permission: the declared one, or the one evaluated for this request
     * (`permissionOf`); View's for an operation that declares none. What the domain takes instead of checking it.
     */
    readonly proof?: Granted,
  ) {}

  get log(): Logger {
    return this.logger.child({ requestId: this.requestId });
  }

  get method(): HttpMethod {
    return this.request.method as HttpMethod;
  }

  get principal(): Principal__Output | null {
    return this.request.principal;
  }

  get publicUrl(): string {
    return this.request.public_url;
  }

  /** Site-relative path of the context: `/` for the site root, `/folder/doc` otherwise. */
  get contextPath(): string {
    return '/' + this.request.context_path.join('/');
  }

  header(name: string): string | undefined {
    return this.request.headers[name];
  }

  /** Whether the request's `Accept` names this media type (e.g. `text/csv` for an export). */
  accepts(type: string): boolean {
    return accepts(this.header('accept'), type);
  }

  /** The platform's own words in the language the request's `Accept-Language` asks for (English by default). */
  get translator(): Translator {
    this.negotiated ??= translatorForRequest(this.header('accept-language'));
    return this.negotiated;
  }
}

export interface Operation<Context, Deps, Params, Query, Body> {
  /**
   * The sub-paths after the `@` segment this method takes, as patterns of `/`-separated segments where
   * `:name` captures one segment: `''` (none, the default), `':transition'`, `':type/:field'`.
   */
  paths?: readonly string[];
  /**
   * Who may call it, beyond View on the context (every endpoint checks that the caller may view its context):
   * a permission on the context, checked before the handler runs; or one of the reasons of `Access` why none
   * is. The dispatcher checks it once and hands the handler its proof (`call.granted`).
   */
  permission: Permission | Access<Context, Deps, Params>;
  /** Further permissions on the context the operation needs besides `permission`, checked and proved alike. */
  alsoRequires?: readonly Permission[];
  /**
   * A rule about the caller that a permission cannot say (e.g. "a Manager or the user itself"), checked
   * after the permission and before the query and body are read, so a refused caller learns nothing of them.
   */
  guard?: (call: EndpointCall<Context, Params, undefined, undefined>, deps: Deps) => void | Promise<void>;
  params?: z.ZodType<Params, z.ZodTypeDef, unknown>;
  /** The query as an object of key → every value sent (Zope suffixes folded); see params.ts. */
  query?: z.ZodType<Query, z.ZodTypeDef, unknown>;
  /** The JSON body; an empty body is `{}` (addendum §7). */
  body?: z.ZodType<Body, z.ZodTypeDef, unknown>;
  /**
   * A file this operation also takes as `multipart/form-data` instead of the JSON body (`call.upload`; `call.body`
   * is then unset): the form field, its media types and its largest size.
   */
  upload?: UploadRule;
  /** Short description for the API's documentation. */
  summary?: string;
  handle(call: EndpointCall<Context, Params, Query, Body>, deps: Deps): Promise<HttpResult>;
}

/**
 * An operation's access when it is not one permission on the context, each with the reason in words:
 * - `public`: View alone; why anyone who may view the context may call it (a login, a read filtered per item);
 * - `authenticated`: any logged-in caller (401 with the challenge for the others);
 * - `guard`: a rule about the caller no permission says; the operation's `guard` applies it (required with it);
 * - `rule`: a rule no permission on the context says (roles on another object, the author of a comment), which
 *   the domain applies where it reads what the rule is about: say where;
 * - `permissionOf`: a permission that depends on the request (a transition's own guard permission, a
 *   vocabulary's), which the dispatcher evaluates after the sub-path parameters and the `guard`, checks and proves.
 */
export type Access<Context = unknown, Deps = unknown, Params = unknown> =
  | { public: string }
  | { authenticated: string }
  | { guard: string }
  | { rule: string }
  | {
      permissionOf: (
        call: EndpointCall<Context, Params, undefined, undefined>,
        deps: Deps,
      ) => Permission | Promise<Permission>;
      why: string;
    };

/** An operation with its types erased, as the dispatcher holds it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation<Context = any, Deps = any> = Operation<Context, Deps, any, any, any>;

/**
 * One `@` endpoint, or one part of it: a service may declare one name several times, each part taking its own
 * sub-paths (`@controlpanels`: the registry's panels, the types panel, the content rules), with the same facts
 * besides its operations (`sameFacts`). A request goes to the part whose sub-path pattern matches it with the most
 * literal segments (`content-rules` before `:id`).
 */
export interface EndpointDeclaration<Context = unknown, Deps = unknown> {
  /** The `@` segment without its `@`; `''` is the context itself (no `@` segment). */
  name: string;
  service: ServiceName;
  context: ContextRule;
  auth?: AuthMode;
  /**
   * How a refusal (401/403) is answered: as the error body of addendum §4 (the default), or as 401 with the
   * body `null` (`@users`: specification, authentication rule 4).
   */
  denial?: 'error' | 'null';
  /** What its GET answers are, for their Cache-Control (`other` when unset). */
  cache?: AnswerKind;
  /** The gateway keeps its answers in its own cache, invalidated by this scope (content's endpoints only). */
  gatewayCache?: CacheScope;
  /** Its bytes stream over the file hop (content's endpoints only). */
  fileHop?: FileHop;
  identifiers?: IdentifierRules;
  /**
   * The collaborators of the service's dependencies its operations use (`using(...)`): the dispatcher hands them
   * only these. Unset, they get all of them (services whose dependencies are few).
   */
  uses?: readonly string[];
  operations: Partial<Record<HttpMethod, AnyOperation<Context, Deps>>>;
}

/**
 * The declaring functions of one service, bound to its context and dependency types, so that each operation's
 * parameter, query and body types are inferred from its schemas:
 *   export const { endpoint, operation } = declarations<ContentDoc, ContentDeps>();
 *   GET: operation({ permission: 'View', query: z.object({...}), handle: async (call, deps) => ... })
 * `using('repo', 'serializer')` answers the same functions for an endpoint that uses only those collaborators: its
 * operations see only them (the compiler refuses any other), and the dispatcher hands them only them.
 */
export function declarations<Context, Deps>() {
  const declaring = <Used>(uses?: readonly string[]) => ({
    operation<Params = Record<string, string>, Query = undefined, Body = undefined>(
      op: Operation<Context, Used, Params, Query, Body>,
    ): Operation<Context, Used, Params, Query, Body> {
      return op;
    },
    // Its operations take fewer collaborators than the service has, so it serves where all are given: the
    // dispatcher hands them `uses` alone.
    endpoint(declaration: EndpointDeclaration<Context, Used>): EndpointDeclaration<Context, Used> {
      return uses ? { ...declaration, uses } : declaration;
    },
  });
  return {
    ...declaring<Deps>(),
    using<Name extends keyof Deps & string>(...uses: Name[]) {
      return declaring<Pick<Deps, Name>>([...new Set(uses)].sort());
    },
  };
}

/**
 * The gateway's view of an endpoint: which service owns it, which methods it takes, how it authenticates, how its
 * answers are cached, and whether its bytes stream over the file hop.
 */
export interface Route {
  service: ServiceName;
  methods: readonly HttpMethod[];
  auth: AuthMode;
  cache: AnswerKind;
  gatewayCache?: CacheScope;
  fileHop?: FileHop;
}

/** Whether two parts of one endpoint agree on everything but their operations. */
export function sameFacts(a: EndpointDeclaration<unknown, unknown>, b: EndpointDeclaration<unknown, unknown>): boolean {
  const facts = (d: EndpointDeclaration<unknown, unknown>) =>
    JSON.stringify({ ...routeOf(d), methods: [], context: d.context, denial: d.denial, identifiers: d.identifiers });
  return facts(a) === facts(b);
}

/**
 * The routing table of a service's declarations, keyed by name: one row per endpoint, its parts' methods joined.
 * Throws when two parts of one endpoint disagree on a fact besides their operations.
 */
export function routesOf(declarations: readonly EndpointDeclaration<unknown, unknown>[]): Record<string, Route> {
  const parts = new Map<string, EndpointDeclaration<unknown, unknown>[]>();
  for (const declaration of declarations)
    parts.set(declaration.name, [...(parts.get(declaration.name) ?? []), declaration]);
  return Object.fromEntries(
    [...parts].map(([name, [first, ...rest]]) => {
      const differing = rest.find((part) => !sameFacts(first, part));
      if (differing) throw new Error(`the parts of @${name} disagree on a fact besides their operations`);
      const methods = new Set([first, ...rest].flatMap((part) => routeOf(part).methods));
      return [name, { ...routeOf(first), methods: HTTP_METHODS.filter((m) => methods.has(m)) }];
    }),
  );
}

/** The routing-table row a declaration yields (what scripts/routes-gen.mjs writes for the gateway). */
export function routeOf(declaration: EndpointDeclaration<unknown, unknown>): Route {
  return {
    service: declaration.service,
    methods: HTTP_METHODS.filter((m) => declaration.operations[m]),
    auth: declaration.auth ?? 'verify',
    cache: declaration.cache ?? 'other',
    ...(declaration.gatewayCache && { gatewayCache: declaration.gatewayCache }),
    ...(declaration.fileHop && { fileHop: declaration.fileHop }),
  };
}

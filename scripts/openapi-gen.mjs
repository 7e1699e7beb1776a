// Writes the API's OpenAPI 3.1 document (gateway/src/openapi.generated.json) from the endpoint declarations of
// every service (services/<service>/src/api/endpoints.ts, read from the sources) and their zod schemas, so the
// gateway serves it without loading any service's code. With --check, fails when the committed document is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { OpenAPIRegistry, OpenApiGeneratorV31, extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import * as prettier from 'prettier';
import { sourceDeclarations } from './source-declarations.mjs';

const root = new URL('..', import.meta.url).pathname;
const target = join(root, 'gateway/src/openapi.generated.json');
const check = process.argv.includes('--check');
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

// The services' own zod, so the schemas built here are of the same kind as theirs.
const { z } = createRequire(join(root, 'services/shared/package.json'))('zod');
// The generator reads parameters through `.openapi()`; patching zod here touches this script's process only.
extendZodWithOpenApi(z);
const { version } = JSON.parse(readFileSync(join(root, 'gateway/package.json'), 'utf8'));

const declarations = sourceDeclarations().map(({ declaration }) => declaration);
declarations.sort((a, b) => a.name.localeCompare(b.name));

const registry = new OpenAPIRegistry();
registry.registerComponent('securitySchemes', 'basic', { type: 'http', scheme: 'basic' });
registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
// Addendum §4: every error body.
registry.registerComponent('schemas', 'Error', {
  type: 'object',
  required: ['type', 'message'],
  properties: {
    type: {
      type: 'string',
      description: 'The error type of addendum §4',
      examples: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'MethodNotAllowed', 'Conflict'],
    },
    message: { type: 'string' },
    request_id: { type: 'string', description: 'On 500 only: the request id the log repeats' },
  },
});
registry.registerComponent('schemas', 'ValidationError', {
  allOf: [
    { $ref: '#/components/schemas/Error' },
    {
      type: 'object',
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['message'],
            properties: { field: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  ],
});
const errorResponse = (description, schema = 'Error') => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const ERRORS_NAMES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  500: 'InternalServerError',
};
const ERRORS = {
  400: errorResponse('Malformed JSON, a missing or invalid field or query parameter', 'ValidationError'),
  401: errorResponse('Anonymous where authentication is required (with `WWW-Authenticate`), or bad credentials'),
  403: errorResponse('Authenticated without the permission, or the object is locked'),
  404: errorResponse('No content at the path, or no such item'),
  405: errorResponse('The endpoint does not take this method'),
  409: errorResponse('A conflict: duplicate id or user, an existing working copy'),
  413: errorResponse(
    'Request body over the configured limits: its bytes (inflated, when compressed), members of one object or in all, elements of one array, or the bytes of one string or member name',
  ),
  415: errorResponse('A request body in a Content-Encoding other than identity, gzip, deflate or br'),
  500: errorResponse('Internal error; the body names the request id'),
};
for (const [status, response] of Object.entries(ERRORS)) {
  registry.registerComponent('responses', ERRORS_NAMES[status], response);
}

/**
 * `''`, `':field/:scale'`, `'rebuild'` → OpenAPI path suffix, the names of its parameters, and its literal segments
 * (which tell apart the operation ids of one method's several paths).
 */
function subPathOf(pattern) {
  if (!pattern) return { suffix: '', names: [], literals: [] };
  const names = [];
  const literals = pattern.split('/').filter((segment) => segment && !segment.startsWith(':'));
  const suffix = pattern
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return '/' + segment;
      names.push(segment.slice(1));
      return `/{${segment.slice(1)}}`;
    })
    .join('');
  return { suffix, names, literals };
}

/** The schema of one sub-path parameter: the declaration's own (required, since the path names it), or a string. */
function pathParamSchema(params, name) {
  let schema = params?.shape?.[name] ?? params?._def?.schema?.shape?.[name];
  while (schema && ['ZodOptional', 'ZodDefault', 'ZodNullable'].includes(schema._def.typeName)) {
    schema = schema._def.innerType;
  }
  return schema ?? z.string();
}

/** The object schema under refinements, for the query's parameters (one per key). */
function objectOf(schema) {
  let current = schema;
  while (current && current._def.typeName !== 'ZodObject') current = current._def.schema ?? current._def.in;
  return current;
}

const contextParam = {
  name: 'path',
  in: 'path',
  required: true,
  description:
    'Site-relative path of the object, which may span several segments (`folder/doc`); the same endpoint on the site root has no such prefix',
  schema: { type: 'string' },
};

const tags = new Map();
const operationIds = new Map();
for (const declaration of declarations) {
  const label = declaration.name ? `@${declaration.name}` : 'content';
  tags.set(label, declaration.service);
  const denialNull = declaration.denial === 'null';
  for (const method of METHODS) {
    const operation = declaration.operations[method];
    if (!operation) continue;
    const patterns = operation.paths ?? [''];
    const prefixes = declaration.context === 'content' ? ['', '/{path}'] : [''];
    for (const prefix of prefixes) {
      for (const pattern of patterns) {
        const { suffix, names, literals } = subPathOf(pattern);
        const endpointSegment = declaration.name ? `/@${declaration.name}` : '';
        const path = prefix + endpointSegment + suffix || '/';
        const request = {};
        if (names.length > 0) {
          request.params = z.object(Object.fromEntries(names.map((n) => [n, pathParamSchema(operation.params, n)])));
        }
        if (operation.query) {
          const query = objectOf(operation.query);
          if (query) request.query = query;
        }
        if (operation.body) {
          request.body = { required: false, content: { 'application/json': { schema: operation.body } } };
        }
        const responses = {
          '2XX': {
            description: operation.summary ?? 'Success',
            content: { 'application/json': { schema: {} } },
          },
        };
        const errorStatuses = [400, 401, 403, 404, 405, 500];
        if (method !== 'GET') errorStatuses.push(409, 413, 415);
        for (const status of errorStatuses.sort()) {
          responses[status] =
            denialNull && (status === 401 || status === 403)
              ? {
                  description: 'Refused (anonymous or without the permission): 401 with the body `null`',
                  content: { 'application/json': { schema: { type: 'null' } } },
                }
              : { $ref: `#/components/responses/${ERRORS_NAMES[status]}` };
        }
        const where = prefix ? 'OnObject' : '';
        const variant =
          literals.map((literal) => capitalize(camel(literal.replace(/[^A-Za-z0-9_-]+/g, '')))).join('') +
          (names.length ? 'By' + names.map(capitalize).join('And') : '');
        const operationId = `${method.toLowerCase()}${capitalize(camel(declaration.name || 'content'))}${variant}${where}`;
        // Client generators name a function per operation id: two operations with one id break them.
        if (operationIds.has(operationId)) {
          throw new Error(`operation id ${operationId} of ${method} ${path} is also ${operationIds.get(operationId)}`);
        }
        operationIds.set(operationId, `${method} ${path}`);
        registry.registerPath({
          method: method.toLowerCase(),
          path,
          operationId,
          summary: operation.summary,
          description: accessDescription(operation),
          tags: [label],
          security: declaration.auth === 'ignore' ? [] : [{}, { basic: [] }, { bearer: [] }],
          parameters: prefix ? [contextParam] : undefined,
          request,
          responses,
        });
      }
    }
  }
}

/** What the declaration says of who may call an operation, in words. */
function accessDescription(operation) {
  const access = operation.permission;
  const also = (operation.alsoRequires ?? []).map((p) => ` and "${p}"`).join('');
  if (typeof access === 'string') return `Requires the permission "${access}"${also}.`;
  if (access.public !== undefined) return `Public (View on the context): ${access.public}.`;
  if (access.authenticated !== undefined) return `Any logged-in caller: ${access.authenticated}.`;
  if (access.guard !== undefined) return `Access: ${access.guard}.`;
  if (access.rule !== undefined) return `Access: ${access.rule}.`;
  return `Requires a permission that depends on the request: ${access.why}.`;
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
function camel(text) {
  return text.replace(/[-_](\w)/g, (_m, c) => c.toUpperCase());
}

const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
  openapi: '3.1.0',
  info: {
    title: 'CMS REST API',
    version,
    description:
      'Plone-REST-API-compatible content management. Generated from the endpoint declarations by scripts/openapi-gen.mjs.',
  },
  servers: [{ url: '/' }],
  tags: [...tags].map(([name, service]) => ({ name, description: `Served by the ${service} service` })),
});

// A path parameter is always required (OpenAPI 3.1 §4.8.12.1), whatever the library made of a coercing schema.
for (const item of Object.values(document.paths)) {
  for (const operation of Object.values(item)) {
    for (const parameter of operation.parameters ?? []) if (parameter.in === 'path') parameter.required = true;
  }
}

const options = (await prettier.resolveConfig(target)) ?? {};
const formatted = await prettier.format(JSON.stringify(document), { ...options, filepath: target });

if (check) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // missing: stale
  }
  if (committed !== formatted) {
    console.error('gateway/src/openapi.generated.json is stale: run `npm run openapi:gen` and commit it');
    process.exit(1);
  }
  console.log(`OpenAPI document up to date (${Object.keys(document.paths).length} paths)`);
} else {
  writeFileSync(target, formatted);
  console.log(`wrote ${target} (${Object.keys(document.paths).length} paths)`);
}

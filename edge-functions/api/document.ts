/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of every /api route, generated from the routes' own zod
 * schemas (openapi.ts) — the ones that validate the requests and type the answers — so the document, the
 * validators and the handlers cannot say different things. `npm test` lints it (`redocly lint`, recommended
 * rules: scripts/openapi-document.ts writes it without a server) and the API tests check every answer they
 * receive against it (tests/support/contract.ts).
 *
 * The routes declare what their own work answers (their successes, 404, 409, 429 …). What the shared
 * middleware and the database connection answer is the same for every route, so it is added here, from
 * what the route is (a write, with a body, with parameters, behind the session), never written per route:
 *
 * - 400: a parameter or the body fails its schema, or the JSON is malformed;
 * - 401 and 403: a route behind the session cookie (401 without one; 403 for a role, status or second
 *   factor it lacks), and every /api/admin route (one guard: app.ts);
 * - 403, 413: every write (cross-origin writes are refused; bodies over 64 KiB: middleware.ts);
 * - 415: every route that takes a JSON body;
 * - 503: every route (the database is unavailable); 504: every write (the outcome is unknown).
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { apiErrorEntity, outcomeUnknownEntity } from '@/domain/entities.ts';
import type { AppEnv } from './context.ts';
import { MAX_BODY_BYTES } from './middleware.ts';
import { json, SESSION_REQUIRED, SESSION_SCHEME } from './openapi.ts';
import { z } from 'zod';

/** For the document itself (served by app.ts: the route needs the finished app). */
export const documentRoute = createRoute({
  operationId: 'getOpenApiDocument',
  method: 'get',
  path: '/openapi.json',
  tags: ['health'],
  summary: 'This document (OpenAPI 3.1)',
  responses: { 200: json(z.record(z.string(), z.unknown()), 'The OpenAPI document of every /api route') },
});

type Document = ReturnType<OpenAPIHono<AppEnv>['getOpenAPI31Document']>;
type Operation = NonNullable<NonNullable<Document['paths']>[string]['get']>;

const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };
const OUTCOME_UNKNOWN_SCHEMA = { $ref: '#/components/schemas/OutcomeUnknown' };

const error = (description: string, schema: object = ERROR_SCHEMA) => ({
  description,
  content: { 'application/json': { schema } },
});

const SHARED_ANSWERS = {
  400: error("Validation failed (the first issue's message) or malformed JSON; nothing was changed"),
  401: error('Not signed in, or the session has ended'),
  403: error('Forbidden: the role, account status or second factor the route needs, or a write from another origin'),
  413: error(`Request body over ${MAX_BODY_BYTES / 1024} KiB`),
  415: error('The body is not JSON (Content-Type application/json)'),
  503: error('The database is unavailable: nothing was done (Retry-After)'),
  504: error(
    'Outcome unknown: the request reached the database and its answer did not come back; it may have been ' +
      'done. A money write sent again with the same Idempotency-Key tells which (Retry-After)',
    OUTCOME_UNKNOWN_SCHEMA,
  ),
} as const;

type SharedStatus = keyof typeof SHARED_ANSWERS;

/** What the shared middleware and the database connection may answer for this operation. */
function sharedStatuses(method: string, operation: Operation): SharedStatus[] {
  const write = WRITES.has(method);
  const requirements = operation.security ?? [];
  const behindSession =
    requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0);
  const statuses: SharedStatus[] = [];
  if ((operation.parameters?.length ?? 0) > 0 || operation.requestBody) statuses.push(400);
  if (behindSession) statuses.push(401, 403);
  if (write) statuses.push(403, 413);
  if (operation.requestBody) statuses.push(415);
  statuses.push(503);
  if (write) statuses.push(504);
  return statuses;
}

/** `GET /api/admin/books.csv` → `getAdminBooksCsv`. */
const fallbackOperationId = (method: string, path: string) =>
  method +
  path
    .replace(/^\/api/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

/** The document of `app`'s routes, with the answers every route shares and the session's security scheme. */
export function apiDocument(app: OpenAPIHono<AppEnv>, description: string): Document {
  app.openAPIRegistry.register('Error', apiErrorEntity);
  app.openAPIRegistry.register('OutcomeUnknown', outcomeUnknownEntity);
  app.openAPIRegistry.registerComponent('securitySchemes', SESSION_SCHEME, {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description:
      'The HttpOnly session cookie set by POST /api/login and POST /api/register (ended by POST /api/logout).',
  });
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Cricket-league betting API',
      version: '1.0.0',
      description,
      license: { name: 'Proprietary' },
    },
    servers: [{ url: '/', description: 'The origin that serves this document (every path starts with /api)' }],
  });
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      // The admin guard (app.ts) stands before every /api/admin route; other routes say what they need.
      operation.security ??= path.startsWith('/api/admin/') ? SESSION_REQUIRED : [];
      // A route declares its operationId; one that does not still gets a stable one (method and path).
      operation.operationId ??= fallbackOperationId(method, path);
      const responses = (operation.responses ??= {});
      for (const status of sharedStatuses(method, operation)) responses[status] ??= SHARED_ANSWERS[status];
    }
  }
  return document;
}

/** The methods of HTTP (RFC 9110, and PATCH): any other is one this server does not know (501). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** 501 for a method this server does not know at all, before anything else of the request runs. */
export const knownMethodsOnly: MiddlewareHandler = async (c, next) => {
  if (!KNOWN_METHODS.has(c.req.method)) return c.json({ message: 'Method not implemented' }, 501);
  await next();
};

/** `/api/matches/{id}` → a pattern that matches `/api/matches/42` (one path segment per parameter). */
const templatePattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

/**
 * The methods `document` lists for `path` (HEAD wherever GET is: Hono answers it with the GET route), or
 * none when no path of the document is `path`.
 */
export function allowedMethods(document: Document, path: string): string[] {
  const allowed = new Set<string>();
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    if (!templatePattern(template).test(path)) continue;
    for (const method of METHODS) if (item[method]) allowed.add(method.toUpperCase());
  }
  if (allowed.has('GET')) allowed.add('HEAD');
  return [...allowed];
}

/** What a request no route took is answered: 405 with `Allow` when its path has other methods, else 404. */
export function notRouted(c: Context, document: Document) {
  const allowed = allowedMethods(document, c.req.path);
  if (allowed.length === 0) return c.json({ message: 'Not found' }, 404);
  c.header('Allow', allowed.join(', '));
  return c.json({ message: 'Method not allowed' }, 405);
}

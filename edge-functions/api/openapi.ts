/**
 * Route building blocks: every route is declared with `createRoute` from the zod schemas of src/domain
 * (requests) and src/domain/entities.ts (answers), so validation and GET /api/openapi.json come from
 * the same source.
 */
import { OpenAPIHono, type OpenAPIHonoOptions, type RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import { apiErrorEntity } from '@/domain/entities.ts';
import { rowId } from '@/domain/schemas.ts';
import { PUBLIC_MATCH_CACHE_CONTROL } from '@/domain/live-updates.ts';
import type { MiddlewareHandler } from 'hono';
import { query, requireSession, type Access, type AppEnv } from './context.ts';

/**
 * A validation failure answers 400 with the first issue's message (the texts of src/domain's schemas) —
 * but only to a caller the route admits: on a signed-in or admin route the session is checked first (one
 * round trip, paid by invalid requests only), so a 401 or 403 comes before a 400 and nobody else learns
 * the payload rules.
 */
export const validationHook: NonNullable<OpenAPIHonoOptions<AppEnv>['defaultHook']> = async (result, c) => {
  if (!result.success) {
    const access = c.get('access');
    if (access !== 'public') await query(c, 'reader', () => []);
    const message = result.error.issues[0]?.message ?? 'Invalid request';
    return c.json({ message }, 400);
  }
};

/**
 * The router of one resource (a sub-app mounted at its prefix: app.ts). Who its routes admit is stated here,
 * once for all of them: a 'user' router puts the sign-in guard (`signedIn`) before every route it declares
 * and the session cookie in the route's security in the document. The guard stands before each route,
 * not the whole prefix: a method a path does not have is still a 405 (document.ts) for anyone.
 */
export function router(access: 'public' | 'user' = 'public') {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  if (access === 'public') return app;
  const declare = app.openapi;
  app.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (declare as (...args: unknown[]) => typeof app)(
      { ...route, middleware: [signedIn], security: route.security ?? SESSION_REQUIRED },
      ...rest,
    )) as typeof app.openapi;
  return app;
}

/**
 * A required JSON request body, with an example the document shows (and an API test sends: it must get
 * the route's success).
 */
export function jsonBody<T extends z.ZodType>(schema: T, example: z.input<T>, description?: string) {
  return { required: true, description, content: { 'application/json': { schema, example } } } as const;
}

/** A JSON answer. */
export function json<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } } as const;
}

/**
 * A keyset page of a list (src/domain/paging.ts): a JSON array of at most `limit` rows, the next page in
 * `Link`, and for counted lists the number of rows with the first page.
 */
export function page<T extends z.ZodType>(schema: T, description: string, { counted = false, staked = false } = {}) {
  return {
    description: `${description} (one page: at most \`limit\` rows)`,
    headers: {
      Link: {
        description: 'Present when more rows follow: `<{this path and query with the next cursor}>; rel="next"`.',
        schema: { type: 'string' as const },
      },
      ...(counted
        ? {
            'X-Total-Count': {
              description: 'All rows of the list; with the first page (no cursor) only.',
              schema: { type: 'integer' as const },
            },
          }
        : {}),
      ...(staked
        ? {
            'X-Total-Stake': {
              description: 'Rupees staked on the open bets; with the first page only.',
              schema: { type: 'integer' as const },
            },
          }
        : {}),
    },
    content: { 'application/json': { schema: z.array(schema) } },
  } as const;
}

const ERROR_TEXT: Record<number, string> = {
  400: "Validation failed (first issue's message) or malformed JSON",
  401: 'Not signed in',
  403: 'Forbidden (role, ownership, account status or cross-origin write)',
  404: 'Not found',
  409: 'Conflict (state, balance, duplicate)',
  429: 'Too many attempts',
};

/**
 * The `{"message": …}` answers a route can give, keyed by exactly those statuses: a handler's answer is
 * type-checked against them (context.ts), so a status the route does not list fails the type check.
 */
export function errors<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(
    statuses.map((status) => [status, json(apiErrorEntity, ERROR_TEXT[status] ?? 'Error')]),
  ) as { [Status in S[number]]: ReturnType<typeof json<typeof apiErrorEntity>> };
}

/** `{id}` path parameter: a positive integer. */
export const idParams = z.object({ id: rowId() });

/** `?userId=`: another user's rows (admins only; a player may pass only their own id). */
export const userIdQuery = z.coerce
  .number({ error: 'Invalid user id' })
  .int('Invalid user id')
  .positive('Invalid user id')
  .max(Number.MAX_SAFE_INTEGER, 'Invalid user id')
  .optional();

export const messageEntity = z.object({ message: z.string() });

/** The `Idempotency-Key` header of every money write (idempotency.ts). */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255, 'Idempotency key must be at most 255 characters')
    .optional()
    .describe(
      'One per action, sent again with its retries. Same key + same body: the first answer is replayed ' +
        '(Idempotent-Replayed: true) and no money moves again; same key + other body: 409.',
    ),
});

/** The security scheme of the session cookie in GET /api/openapi.json (document.ts). */
export const SESSION_SCHEME = 'session';
/** An operation that needs the session cookie. */
export const SESSION_REQUIRED: Record<string, string[]>[] = [{ [SESSION_SCHEME]: [] }];
/** An operation anyone may call whose answer also depends on the session when there is one. */
export const SESSION_OPTIONAL: Record<string, string[]>[] = [{}, { [SESSION_SCHEME]: [] }];

/**
 * The sign-in guard of a player router (`router('user')`): without a session cookie the answer is 401 before
 * the body is validated, so an anonymous caller learns nothing about the payload rules. (A cookie that turns
 * out to be expired is found out with the route's own database work: context.ts.)
 */
const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  restrictTo(c, 'user');
  await next();
};

/** Marks the request's route as needing `access` (for validationHook and `query`) and answers 401 without a session. */
export function restrictTo(c: Parameters<MiddlewareHandler<AppEnv>>[0], access: Exclude<Access, 'public'>): void {
  requireSession(c);
  c.set('access', access);
}

/** The headers of a public match read's answer, which any shared cache may keep and serve to anyone. */
const sharedHeaders = {
  ETag: {
    description: 'A hash of the body (weak): send it back in If-None-Match',
    schema: { type: 'string' as const },
  },
  'Cache-Control': {
    description: 'The same answer for every caller, so any cache may keep it for a few seconds',
    schema: { type: 'string' as const, example: PUBLIC_MATCH_CACHE_CONTROL },
  },
};

/** A public match read's JSON answer: the same for everyone, with its ETag and a shared cache's lifetime. */
export function sharedJson<T extends z.ZodType>(schema: T, description: string) {
  return { ...json(schema, description), headers: sharedHeaders } as const;
}

/** A conditional GET's answer when the client's ETag is still current. */
export const notModified = {
  304: { description: 'Not modified: the ETag sent in If-None-Match is current', headers: sharedHeaders },
} as const;

/**
 * The API's document (GET /api/openapi.json) as tools read it, and the methods HTTP knows: a method a path
 * does not have is a 405 naming the ones it has (Allow), a method nobody knows a 501, a path nobody serves a 404.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, registerPlayer } from '../support/api.ts';

/** A raw request (fetch refuses TRACE and methods it does not know): status, Allow and body. */
function raw(url: string, method: string): Promise<{ status: number; allow: string | undefined; body: unknown }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { method }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body: JSON.parse(text) }),
      );
    });
    call.on('error', reject);
    call.end();
  });
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The parts of an operation of the document these tests read. */
interface Operation {
  operationId: string;
  security: Record<string, string[]>[];
  responses: Record<string, unknown>;
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: {
    content: Record<string, { example?: unknown; schema?: { properties?: Record<string, JsonSchema> } }>;
  };
}

/** The JSON Schema keywords these tests read. */
interface JsonSchema {
  type?: string | string[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  enum?: unknown[];
  pattern?: string;
  not?: { const?: unknown };
}

describe('the API document', () => {
  const api = apiSuite();

  it('is OpenAPI 3.1 with servers, a unique operationId on every operation and the session as the security of those that need it', async () => {
    const { status, body: document } = await new Client(api.server.url).get('/api/openapi.json');
    expect(status).toBe(200);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'session',
    });
    const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, item]) => METHODS.filter((method) => item[method]).map((method) => ({ path, method, ...item[method] })),
    );
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const security = (operationId: string) =>
      operations.find((operation) => operation.operationId === operationId)?.security;
    expect(security('listMatches')).toEqual([]);
    expect(security('placeBet')).toEqual([{ session: [] }]);
    expect(security('adminListUsers')).toEqual([{ session: [] }]);
    expect(security('logout')).toEqual([{}, { session: [] }]);
    // what the shared middleware answers, on every operation it can happen to
    const placeBet = operations.find((operation) => operation.operationId === 'placeBet')!;
    expect(Object.keys(placeBet.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415', '503', '504']),
    );
    expect(placeBet.requestBody?.content['application/json'].example).toMatchObject({ match_id: 1, amount: 1000 });
  });

  it('states the rules the server checks: the reality-check intervals, the 6-digit code, the cursor', async () => {
    const { body: document } = await new Client(api.server.url).get('/api/openapi.json');
    const body = (path: string, method: string) =>
      document.paths[path][method].requestBody.content['application/json'].schema.properties;
    expect(body('/api/account/reality-check', 'put').interval_minutes.enum).toEqual([15, 30, 60, null]);
    expect(body('/api/account/two-factor/confirm', 'post').code.pattern).toBe('^\\s*(?:\\d\\s*){6}$');
    expect(body('/api/register', 'post').email.format).toBe('email');
    expect(body('/api/admin/users/{id}/wallet', 'post').amount).toMatchObject({
      minimum: -100000,
      maximum: 100000,
      not: { const: 0 },
    });
    expect(body('/api/admin/settings', 'put').betting_close_over).toMatchObject({ minimum: 0, maximum: 20 });
    const cursor = document.paths['/api/bets'].get.parameters.find(
      (parameter: { name: string }) => parameter.name === 'cursor',
    );
    expect(cursor.schema.pattern).toBe('^[A-Za-z0-9_-]{1,24}$');
  });
});

describe('methods', () => {
  const api = apiSuite();

  it('answers 405 with Allow for a method the path does not have, and changes nothing', async () => {
    expect(await raw(`${api.server.url}/api/health`, 'DELETE')).toEqual({
      status: 405,
      allow: 'GET, HEAD',
      body: { message: 'Method not allowed' },
    });
    expect(await raw(`${api.server.url}/api/bets`, 'TRACE')).toMatchObject({ status: 405, allow: 'GET, POST, HEAD' });
    expect(await raw(`${api.server.url}/api/matches/42`, 'PUT')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
    const player = await registerPlayer(api.server);
    expect((await player.client.delete('/api/bets')).status).toBe(405);
  });

  it('answers 501 for a method HTTP does not have, and 404 for a path nobody serves', async () => {
    expect(await raw(`${api.server.url}/api/bets`, 'BREW')).toEqual({
      status: 501,
      allow: undefined,
      body: { message: 'Method not implemented' },
    });
    expect(await raw(`${api.server.url}/api/nothing-here`, 'DELETE')).toMatchObject({
      status: 404,
      body: { message: 'Not found' },
    });
  });
});

/** A value of `schema` just outside one of its stated bounds, or none when it states none. */
function justOutside(schema: JsonSchema): { value: unknown; rule: string }[] {
  const outside: { value: unknown; rule: string }[] = [];
  const types = [schema.type ?? []].flat();
  const step = types.includes('integer') ? 1 : 0.01;
  if (typeof schema.minimum === 'number')
    outside.push({ value: schema.minimum - step, rule: `minimum ${schema.minimum}` });
  if (typeof schema.exclusiveMinimum === 'number')
    outside.push({ value: schema.exclusiveMinimum, rule: `exclusiveMinimum ${schema.exclusiveMinimum}` });
  if (typeof schema.maximum === 'number')
    outside.push({ value: schema.maximum + step, rule: `maximum ${schema.maximum}` });
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    outside.push({ value: 'x'.repeat(schema.minLength - 1), rule: `minLength ${schema.minLength}` });
  if (typeof schema.maxLength === 'number')
    outside.push({ value: 'x'.repeat(schema.maxLength + 1), rule: `maxLength ${schema.maxLength}` });
  if (Array.isArray(schema.enum)) {
    const listed = schema.enum;
    const numbers = listed.some((value) => typeof value === 'number');
    let other: unknown = 'not-one-of-them';
    if (numbers) for (other = 2; listed.includes(other); other = (other as number) + 1);
    outside.push({ value: other, rule: `enum ${JSON.stringify(schema.enum)}` });
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test('\u0000'))
    outside.push({ value: '\u0000', rule: `pattern ${schema.pattern}` });
  if (schema.not && 'const' in schema.not) outside.push({ value: schema.not.const, rule: 'not const' });
  return outside;
}

/**
 * Operations whose input no schema validates before anything else: the webhook checks its signature over the
 * raw bytes first (401), the sandbox gateway's form is its own page's, and the live stream (an answer that
 * does not end) is tested in live.test.ts.
 */
const VALIDATED_LATER = new Set(['paymentWebhook', 'submitSandboxPayment', 'streamLiveMatches']);

describe('the rules the document states', () => {
  const api = apiSuite({ admin: true });

  it("are the server's: a value just outside each stated bound of a parameter or a body field is a 400", async () => {
    const { body: document } = await new Client(api.server.url).get('/api/openapi.json');
    const player = await registerPlayer(api.server);
    const anonymous = new Client(api.server.url);
    const accepted: string[] = [];
    let tried = 0;
    for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation || VALIDATED_LATER.has(operation.operationId)) continue;
        const signedIn =
          operation.security.length > 0 && operation.security.every((requirement) => 'session' in requirement);
        const client = template.startsWith('/api/admin/') ? api.admin.client : signedIn ? player.client : anonymous;
        const path = (values: Record<string, unknown> = {}) =>
          template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name] ?? 1)));
        const cases: { what: string; path: string; body?: unknown }[] = [];
        const json = operation.requestBody?.content['application/json'];
        const example = json?.example as Record<string, unknown> | undefined;
        for (const [name, schema] of Object.entries(json?.schema?.properties ?? {}))
          for (const { value, rule } of justOutside(schema))
            cases.push({ what: `body.${name} ${rule}`, path: path(), body: { ...example, [name]: value } });
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'path' && parameter.in !== 'query') continue;
          for (const { value, rule } of justOutside(parameter.schema)) {
            const target =
              parameter.in === 'path'
                ? path({ [parameter.name]: value })
                : `${path()}?${parameter.name}=${encodeURIComponent(String(value))}`;
            cases.push({ what: `${parameter.in} ${parameter.name} ${rule}`, path: target, body: example });
          }
        }
        tried += cases.length;
        await Promise.all(
          cases.map(async ({ what, path: target, body }) => {
            const answer = await client.call(method.toUpperCase(), target, body);
            if (answer.status !== 400)
              accepted.push(`${operation.operationId} ${what}: ${answer.status} ${answer.text}`);
          }),
        );
      }
    }
    expect(accepted).toEqual([]);
    expect(tried).toBeGreaterThan(100);
  }, 120_000);
});

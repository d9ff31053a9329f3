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
  requestBody?: { content: Record<string, { example?: unknown }> };
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

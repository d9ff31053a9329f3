/**
 * The authorization matrix: every route × {anonymous, player, another player, suspended, banned, admin},
 * generated from ONE table. A final check compares the table with GET /api/openapi.json, so a new route
 * without a row fails here. Every answer is also checked for who may keep it: `Cache-Control: public` on the
 * public match reads' successful answers (the same for every caller, so a shared cache may serve them to
 * anyone), `private, no-store` on everything else, whoever asks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIVATE_CACHE_CONTROL, PUBLIC_MATCH_CACHE_CONTROL } from '../../src/domain/live-updates.ts';
import {
  apiSuite,
  Client,
  createMatch,
  depositReference,
  newBankAccount,
  registerPlayer,
  unique,
  type Player,
} from '../support/api.ts';

type Actor = 'anonymous' | 'player' | 'other' | 'suspended' | 'banned' | 'admin';
const ACTORS: Actor[] = ['anonymous', 'player', 'other', 'suspended', 'banned', 'admin'];

interface Fixtures {
  player: Player;
  matchId: number;
  accountId: number;
}
interface Row {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** the OpenAPI path template */
  route: string;
  path: (f: Fixtures) => string;
  body?: (f: Fixtures) => unknown;
  headers?: Record<string, string>;
  /** The answer is a never-ending stream: only its status and headers are checked. */
  stream?: true;
  /** A public match read: its successful answers may be kept by a shared cache. */
  shared?: true;
  expect: [anonymous: number, player: number, other: number, suspended: number, banned: number, admin: number];
}

const NONE = 99999999;
const ADMIN = (ok: number): Row['expect'] => [401, 403, 403, 403, 401, ok];
const SIGNED_IN = (ok: number): Row['expect'] => [401, ok, ok, ok, 401, ok];
const PUBLIC = (ok: number): Row['expect'] => [ok, ok, ok, ok, ok, ok];
const account = () => newBankAccount('Holder Name');

const TABLE: Row[] = [
  { method: 'GET', route: '/api/health', path: () => '/api/health', expect: PUBLIC(200) },
  { method: 'GET', route: '/api/user', path: () => '/api/user', expect: SIGNED_IN(200) },
  // an empty change: authorized, and nothing changes
  { method: 'PATCH', route: '/api/user', path: () => '/api/user', body: () => ({}), expect: SIGNED_IN(200) },
  {
    method: 'POST',
    route: '/api/login',
    path: () => '/api/login',
    body: () => ({ username: unique('nobody'), password: 'wrong-pass' }),
    expect: PUBLIC(401),
  },
  { method: 'POST', route: '/api/register', path: () => '/api/register', body: () => ({}), expect: PUBLIC(400) },
  { method: 'GET', route: '/api/matches', path: () => '/api/matches', shared: true, expect: PUBLIC(200) },
  {
    method: 'GET',
    route: '/api/matches/{id}',
    path: (f) => `/api/matches/${f.matchId}`,
    shared: true,
    expect: PUBLIC(200),
  },
  { method: 'GET', route: '/api/live/token', path: () => '/api/live/token', expect: [401, 404, 404, 404, 401, 404] },
  {
    method: 'GET',
    route: '/api/matches/{id}/position',
    path: (f) => `/api/matches/${f.matchId}/position`,
    expect: SIGNED_IN(200),
  },
  {
    method: 'GET',
    route: '/api/live/matches',
    path: (f) => `/api/live/matches?id=${f.matchId}`,
    stream: true,
    expect: PUBLIC(200),
  },
  { method: 'GET', route: '/api/bets', path: () => '/api/bets', expect: SIGNED_IN(200) },
  // nobody here has funds: 409 means "authorized, then refused for balance"
  {
    method: 'POST',
    route: '/api/bets',
    path: () => '/api/bets',
    body: (f) => ({ match_id: f.matchId, team_id: 1, amount: 1000 }),
    expect: [401, 409, 409, 403, 401, 409],
  },
  {
    method: 'POST',
    route: '/api/wallet/deposit',
    path: () => '/api/wallet/deposit',
    body: () => ({ amount: 500, paymentMethod: 'upi', reference: depositReference() }),
    expect: [401, 201, 201, 403, 401, 201],
  },
  // the account belongs to `player`: everyone else is refused it
  {
    method: 'POST',
    route: '/api/wallet/withdraw',
    path: () => '/api/wallet/withdraw',
    body: (f) => ({ amount: 500, bankAccountId: f.accountId }),
    expect: [401, 409, 403, 403, 401, 403],
  },
  {
    method: 'GET',
    route: '/api/wallet/transactions',
    path: (f) => `/api/wallet/transactions?userId=${f.player.id}`,
    expect: [401, 200, 403, 403, 401, 200],
  },
  { method: 'GET', route: '/api/bank-accounts', path: () => '/api/bank-accounts', expect: SIGNED_IN(200) },
  {
    method: 'POST',
    route: '/api/bank-accounts',
    path: () => '/api/bank-accounts',
    body: account,
    expect: SIGNED_IN(201),
  },
  {
    method: 'POST',
    route: '/api/payments/webhook',
    path: () => '/api/payments/webhook',
    body: () => ({ reference: 'REF-1-AAAA', amount: 500, status: 'success' }),
    expect: PUBLIC(401),
  },
  {
    method: 'GET',
    route: '/api/payments/sandbox',
    path: () => '/api/payments/sandbox?amount=500&username=x&reference=REF-1-AAAA',
    expect: PUBLIC(200),
  },
  {
    method: 'POST',
    route: '/api/payments/sandbox',
    path: () => '/api/payments/sandbox',
    body: () => `amount=500&reference=${depositReference()}&outcome=success`,
    // only the signed-in owner of the deposit: an unknown (or someone else's) reference is a 404
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    expect: SIGNED_IN(404),
  },
  // player protection: an admin may read a player's, nobody may change another user's; the time-out and
  // self-exclusion rows send a length that does not exist (400 once authorized), so nobody here is excluded
  {
    method: 'GET',
    route: '/api/account/limits',
    path: (f) => `/api/account/limits?userId=${f.player.id}`,
    expect: [401, 200, 403, 403, 401, 200],
  },
  {
    method: 'PUT',
    route: '/api/account/limits',
    path: () => '/api/account/limits',
    body: () => ({ period: 'monthly', amount: 10_000_000 }),
    expect: SIGNED_IN(200),
  },
  {
    method: 'POST',
    route: '/api/account/timeout',
    path: () => '/api/account/timeout',
    body: () => ({ days: 2 }),
    expect: SIGNED_IN(400),
  },
  {
    method: 'GET',
    route: '/api/account/reality-check',
    path: () => '/api/account/reality-check',
    expect: SIGNED_IN(200),
  },
  {
    method: 'PUT',
    route: '/api/account/reality-check',
    path: () => '/api/account/reality-check',
    body: () => ({ interval_minutes: 30 }),
    expect: SIGNED_IN(200),
  },
  {
    method: 'GET',
    route: '/api/account/play-session',
    path: () => '/api/account/play-session',
    expect: SIGNED_IN(200),
  },
  {
    method: 'POST',
    route: '/api/account/limit-prompt',
    path: () => '/api/account/limit-prompt',
    body: () => ({ answer: 'set_limit', period: 'daily' }),
    expect: SIGNED_IN(400),
  },
  {
    method: 'POST',
    route: '/api/account/self-exclusion',
    path: () => '/api/account/self-exclusion',
    body: () => ({ months: 1 }),
    expect: SIGNED_IN(400),
  },
  // account security: every user's own; setting up two-factor sign-in is for admins (a wrong password or code: 400)
  {
    method: 'POST',
    route: '/api/account/password',
    path: () => '/api/account/password',
    body: () => ({ current_password: 'not-the-password', new_password: 'never-set-1' }),
    expect: SIGNED_IN(400),
  },
  { method: 'GET', route: '/api/account/sessions', path: () => '/api/account/sessions', expect: SIGNED_IN(200) },
  {
    method: 'DELETE',
    route: '/api/account/sessions/{id}',
    path: () => `/api/account/sessions/${NONE}`,
    expect: SIGNED_IN(404),
  },
  { method: 'GET', route: '/api/account/two-factor', path: () => '/api/account/two-factor', expect: SIGNED_IN(200) },
  {
    method: 'POST',
    route: '/api/account/two-factor',
    path: () => '/api/account/two-factor',
    body: () => ({ current_password: 'not-the-password' }),
    expect: [401, 403, 403, 403, 401, 400],
  },
  {
    method: 'POST',
    route: '/api/account/two-factor/confirm',
    path: () => '/api/account/two-factor/confirm',
    body: () => ({ code: 'abcdef' }),
    expect: [401, 400, 400, 400, 401, 400],
  },
  {
    method: 'GET',
    route: '/api/wallet/statement.csv',
    path: (f) => `/api/wallet/statement.csv?from=2026-01-01&to=2026-12-31&userId=${f.player.id}`,
    expect: [401, 200, 403, 403, 401, 200],
  },
  { method: 'GET', route: '/api/admin/matches', path: () => '/api/admin/matches', expect: ADMIN(200) },
  {
    method: 'POST',
    route: '/api/admin/matches',
    path: () => '/api/admin/matches',
    body: () => ({}),
    expect: ADMIN(400),
  },
  {
    method: 'GET',
    route: '/api/admin/matches/{id}',
    path: (f) => `/api/admin/matches/${f.matchId}`,
    expect: ADMIN(200),
  },
  {
    method: 'GET',
    route: '/api/admin/bets/match/{id}',
    path: (f) => `/api/admin/bets/match/${f.matchId}`,
    expect: ADMIN(200),
  },
  { method: 'GET', route: '/api/admin/teams', path: () => '/api/admin/teams', expect: ADMIN(200) },
  {
    method: 'PATCH',
    route: '/api/admin/matches/{id}/start',
    path: () => `/api/admin/matches/${NONE}/start`,
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/matches/{id}/update-live',
    path: () => `/api/admin/matches/${NONE}/update-live`,
    body: () => ({ current_innings: 1 }),
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/matches/{id}/odds',
    path: () => `/api/admin/matches/${NONE}/odds`,
    body: () => ({ team1_odds: 1.85 }),
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/matches/{id}/declare-winner',
    path: () => `/api/admin/matches/${NONE}/declare-winner`,
    body: () => ({ winning_team_id: 1 }),
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/matches/{id}/abandon',
    path: () => `/api/admin/matches/${NONE}/abandon`,
    expect: ADMIN(404),
  },
  {
    method: 'POST',
    route: '/api/admin/matches/{id}/correct-result',
    path: () => `/api/admin/matches/${NONE}/correct-result`,
    body: () => ({ winning_team_id: 1, reason: 'Wrong team tapped in the dialog' }),
    expect: ADMIN(404),
  },
  {
    method: 'GET',
    route: '/api/admin/matches/{id}/corrections',
    path: (f) => `/api/admin/matches/${f.matchId}/corrections`,
    expect: ADMIN(200),
  },
  {
    method: 'POST',
    route: '/api/admin/corrections/{id}/approve',
    path: () => `/api/admin/corrections/${NONE}/approve`,
    expect: ADMIN(404),
  },
  {
    method: 'POST',
    route: '/api/admin/corrections/{id}/reject',
    path: () => `/api/admin/corrections/${NONE}/reject`,
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/matches/{id}/suspend',
    path: () => `/api/admin/matches/${NONE}/suspend`,
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/matches/{id}/resume',
    path: () => `/api/admin/matches/${NONE}/resume`,
    expect: ADMIN(404),
  },
  {
    method: 'GET',
    route: '/api/admin/matches/{id}/risk',
    path: (f) => `/api/admin/matches/${f.matchId}/risk`,
    expect: ADMIN(200),
  },
  { method: 'GET', route: '/api/admin/settings', path: () => '/api/admin/settings', expect: ADMIN(200) },
  // an empty change: authorized, and nothing changes
  {
    method: 'PUT',
    route: '/api/admin/settings',
    path: () => '/api/admin/settings',
    body: () => ({}),
    expect: ADMIN(200),
  },
  {
    method: 'GET',
    route: '/api/admin/settings/changes',
    path: () => '/api/admin/settings/changes',
    expect: ADMIN(200),
  },
  {
    method: 'POST',
    route: '/api/admin/settings/changes/{id}/approve',
    path: () => `/api/admin/settings/changes/${NONE}/approve`,
    expect: ADMIN(404),
  },
  {
    method: 'POST',
    route: '/api/admin/settings/changes/{id}/reject',
    path: () => `/api/admin/settings/changes/${NONE}/reject`,
    expect: ADMIN(404),
  },
  { method: 'GET', route: '/api/admin/users', path: () => '/api/admin/users', expect: ADMIN(200) },
  { method: 'GET', route: '/api/admin/users/counts', path: () => '/api/admin/users/counts', expect: ADMIN(200) },
  { method: 'GET', route: '/api/admin/users/{id}', path: (f) => `/api/admin/users/${f.player.id}`, expect: ADMIN(200) },
  {
    method: 'GET',
    route: '/api/admin/users/{id}/bank-accounts',
    path: (f) => `/api/admin/users/${f.player.id}/bank-accounts`,
    expect: ADMIN(200),
  },
  {
    method: 'GET',
    route: '/api/admin/users/{id}/transactions',
    path: (f) => `/api/admin/users/${f.player.id}/transactions`,
    expect: ADMIN(200),
  },
  {
    method: 'GET',
    route: '/api/admin/users/{id}/bets',
    path: (f) => `/api/admin/users/${f.player.id}/bets`,
    expect: ADMIN(200),
  },
  {
    method: 'GET',
    route: '/api/admin/users/{id}/linked',
    path: (f) => `/api/admin/users/${f.player.id}/linked`,
    expect: ADMIN(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/{id}/linked/{linkedId}/exclusion',
    path: () => `/api/admin/users/${NONE}/linked/${NONE - 1}/exclusion`,
    expect: ADMIN(404),
  },
  {
    method: 'POST',
    route: '/api/admin/users/{id}/wallet',
    path: () => `/api/admin/users/${NONE}/wallet`,
    body: () => ({ amount: 1, notes: 'matrix' }),
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/users/{id}/status',
    path: () => `/api/admin/users/${NONE}/status`,
    body: () => ({ status: 'active' }),
    expect: ADMIN(404),
  },
  { method: 'GET', route: '/api/admin/transactions', path: () => '/api/admin/transactions', expect: ADMIN(200) },
  {
    method: 'GET',
    route: '/api/admin/transactions/counts',
    path: () => '/api/admin/transactions/counts',
    expect: ADMIN(200),
  },
  {
    method: 'PATCH',
    route: '/api/admin/transactions/{id}/approve',
    path: () => `/api/admin/transactions/${NONE}/approve`,
    expect: ADMIN(404),
  },
  {
    method: 'PATCH',
    route: '/api/admin/transactions/{id}/reject',
    path: () => `/api/admin/transactions/${NONE}/reject`,
    expect: ADMIN(404),
  },
  { method: 'GET', route: '/api/admin/dashboard/stats', path: () => '/api/admin/dashboard/stats', expect: ADMIN(200) },
  { method: 'GET', route: '/api/admin/audit-log', path: () => '/api/admin/audit-log', expect: ADMIN(200) },
  {
    method: 'GET',
    route: '/api/admin/books',
    path: () => '/api/admin/books?from=2026-11-01&to=2026-11-30',
    expect: ADMIN(200),
  },
  {
    method: 'GET',
    route: '/api/admin/books.csv',
    path: () => '/api/admin/books.csv?from=2026-11-01&to=2026-11-30',
    expect: ADMIN(200),
  },
  { method: 'GET', route: '/api/openapi.json', path: () => '/api/openapi.json', expect: PUBLIC(200) },
  // last: they end the sessions they are given
  { method: 'POST', route: '/api/logout-all', path: () => '/api/logout-all', expect: SIGNED_IN(200) },
  { method: 'POST', route: '/api/logout', path: () => '/api/logout', expect: PUBLIC(200) },
];

describe('authorization matrix', () => {
  const api = apiSuite({ admin: true });
  let fixtures: Fixtures;
  const clients = {} as Record<Actor, Client>;

  beforeAll(async () => {
    const { admin } = api;
    const [player, other, suspended, banned] = await Promise.all([1, 2, 3, 4].map(() => registerPlayer(api.server)));
    await admin.client.patch(`/api/admin/users/${suspended.id}/status`, { status: 'suspended' });
    // a change of status ends the user's sessions; a suspended player may sign in again and look
    await suspended.client.post('/api/login', { username: suspended.username, password: suspended.password });
    await admin.client.patch(`/api/admin/users/${banned.id}/status`, { status: 'banned' });
    const match = await createMatch(admin);
    const bank = await player.client.post('/api/bank-accounts', account());
    fixtures = { player, matchId: match.id, accountId: bank.body.id };
    Object.assign(clients, {
      anonymous: new Client(api.server.url),
      player: player.client,
      other: other.client,
      suspended: suspended.client,
      banned: banned.client,
      admin: admin.client,
    });
  });

  describe.each(TABLE)('$method $route', (row) => {
    it.each(ACTORS.map((actor, index) => [actor, row.expect[index]] as const))('%s → %i', async (actor, expected) => {
      const cacheControl = (status: number) =>
        row.shared && status === 200 ? PUBLIC_MATCH_CACHE_CONTROL : PRIVATE_CACHE_CONTROL;
      if (row.stream) {
        const stream = await clients[actor].streamHead(row.path(fixtures));
        expect(stream.status).toBe(expected);
        expect(stream.headers.get('cache-control')).toBe(cacheControl(stream.status));
        return;
      }
      const body = row.body?.(fixtures);
      const answer = await clients[actor].call(row.method, row.path(fixtures), body, row.headers);
      expect(answer.status, answer.text.slice(0, 200)).toBe(expected);
      expect(answer.headers.get('cache-control'), 'who may keep the answer').toBe(cacheControl(answer.status));
      if (answer.status === 401 && row.route !== '/api/login' && row.route !== '/api/payments/webhook') {
        expect(answer.body).toEqual({ message: 'Not authenticated' });
      }
      if (answer.status === 403 && row.route.startsWith('/api/admin')) {
        expect(answer.body).toEqual({ message: 'Admin access required' });
      }
    });
  });

  it('covers every route of the OpenAPI document', async () => {
    const doc = await new Client(api.server.url).get('/api/openapi.json');
    const documented = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const tabled = TABLE.map((row) => `${row.method} ${row.route}`);
    expect(new Set(tabled)).toEqual(new Set(documented));
    expect(documented.length).toBeGreaterThanOrEqual(35);
  });
});

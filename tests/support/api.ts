/**
 * Helpers for the API tests: an HTTP client with a cookie jar, players and admins, funding through the real
 * deposit + signed webhook path, matches through the admin API, and direct database checks (postgres.js).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- answers default to untyped JSON; each test reads the fields it checks */
import { createHmac, randomBytes, randomInt, scryptSync } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { nextPageUrl } from '../../src/domain/paging.ts';
import { contractOf } from './contract.ts';
import { requireEnv, startServer, TEST_PROXY_SECRET, type ServerOptions, type TestServer } from './server.ts';

/** The LOCAL-ONLY sandbox secret of edge-functions/_shared/env.ts (the test server runs with the sandbox on). */
export const WEBHOOK_SECRET = 'local-sandbox-only-webhook-secret';

export function database(url = requireEnv('DATABASE_URL')) {
  return postgres(url, {
    max: 4,
    onnotice: () => {},
    types: { bigint: { to: 20, from: [20], serialize: String, parse: Number } },
  });
}
export type Db = ReturnType<typeof database>;

/** The scrypt format of edge-functions/_shared/password.ts: `scrypt$N$r$p$salt$key` (base64). */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 64, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

let counter = 0;
/** A unique suffix for usernames, emails and references within this run. */
export function unique(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid.toString(36)}${counter}${randomInt(1000)}`;
}

/**
 * A bank account nobody holds yet, as POST /api/bank-accounts takes it: a bank account belongs to one account,
 * and the test database is shared by every file and by both passes of the API tests.
 */
export function newBankAccount(holder = 'Test Player') {
  return {
    account_holder: holder,
    account_number: `${Date.now()}${randomInt(100_000, 1_000_000)}`,
    ifsc_code: 'HDFC0001234',
    bank_name: 'HDFC Bank',
  };
}

/** A phone number nobody has yet (compared on its last ten digits: one account per phone number). */
export const newPhone = () => `9${randomInt(100_000_000, 1_000_000_000)}`;

/** A bank account of a player's own: nobody else holds it (one account per bank account). */
export const ownAccount = () => ({
  ...newBankAccount('Rahul Sharma'),
  ifsc_code: 'sbin0001234',
  bank_name: 'State Bank',
});

/** A random client IP, so the per-IP registration limit never couples tests. */
export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/**
 * One browser: keeps the session and device cookies between calls; every answer it receives is checked
 * against the server's API document (contract.ts). Its requests come as through the static
 * host's rewrite: from `ip` (X-Forwarded-For) with the proxy's secret, unless `viaProxy` is false (a caller
 * who reaches the function directly).
 */
export class Client {
  /** `session=…`, or null when signed out */
  cookie: string | null = null;
  /** `device=…`: the signed cookie of a browser that has signed in (rate limits spare it) */
  device: string | null = null;
  viaProxy = true;
  constructor(
    readonly baseUrl: string,
    public ip = randomIp(),
  ) {}

  private forwarded(): Record<string, string> {
    return this.viaProxy ? { 'x-forwarded-for': this.ip, 'x-proxy-secret': TEST_PROXY_SECRET } : {};
  }

  private cookies(): Record<string, string> {
    const pairs = [this.cookie, this.device].filter(Boolean);
    return pairs.length > 0 ? { cookie: pairs.join('; ') } : {};
  }

  async call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const init: RequestInit = {
      method,
      redirect: 'manual',
      headers: {
        ...this.forwarded(),
        ...this.cookies(),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
    const response = await fetch(`${this.baseUrl}${path}`, init);
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(';')[0];
      const value = pair.endsWith('=') ? null : pair;
      if (pair.startsWith('session=')) this.cookie = value;
      if (pair.startsWith('device=')) this.device = value;
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (HTML page or empty)
    }
    if (path.startsWith('/api/') && method !== 'HEAD') {
      const breach = (await contractOf(this.baseUrl))?.check(
        method,
        path,
        response.status,
        response.headers.get('content-type'),
        parsed,
      );
      if (breach) throw new Error(`An answer the API document does not allow: ${breach}`);
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  /** The status and headers of a streaming answer (Server-Sent Events), without waiting for the stream to end. */
  async streamHead(path: string): Promise<{ status: number; headers: Headers }> {
    const abort = new AbortController();
    const response = await fetch(`${this.baseUrl}${path}`, {
      headers: { ...this.forwarded(), ...this.cookies() },
      signal: abort.signal,
    });
    abort.abort();
    return { status: response.status, headers: response.headers };
  }

  async streamStatus(path: string): Promise<number> {
    return (await this.streamHead(path)).status;
  }

  get = <T = any>(path: string, headers?: Record<string, string>) => this.call<T>('GET', path, undefined, headers);
  post = <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call<T>('POST', path, body, headers);
  patch = <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call<T>('PATCH', path, body, headers);
  put = <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call<T>('PUT', path, body, headers);
  delete = <T = any>(path: string, headers?: Record<string, string>) =>
    this.call<T>('DELETE', path, undefined, headers);
}

export interface Player {
  client: Client;
  id: number;
  username: string;
  password: string;
}

/**
 * A new player, signed in. With `sameBrowserAs`, registered in that player's browser (its device cookie), as
 * a person opening a second account on their own phone would.
 */
export async function registerPlayer(
  server: TestServer,
  extra: Record<string, unknown> = {},
  { sameBrowserAs }: { sameBrowserAs?: Player } = {},
): Promise<Player> {
  const client = new Client(server.url);
  if (sameBrowserAs) [client.ip, client.device] = [sameBrowserAs.client.ip, sameBrowserAs.client.device];
  const username = unique('p');
  const password = 'secret-123';
  const answer = await client.post('/api/register', {
    name: `Player ${username}`,
    username,
    email: `${username}@example.com`,
    password,
    ...extra,
  });
  if (answer.status !== 201) throw new Error(`register failed: ${answer.status} ${answer.text}`);
  return { client, id: answer.body.id, username, password };
}

export async function createAdmin(server: TestServer, db: Db): Promise<Player> {
  const username = unique('admin');
  const password = 'admin-secret-1';
  await db.begin(async (tx) => {
    await tx`set local role service_role`;
    await tx`select app.create_admin(${username}, ${hashPassword(password)}, ${'Admin'}, ${`${username}@example.com`})`;
  });
  const client = new Client(server.url);
  const answer = await client.post('/api/login', { username, password });
  if (answer.status !== 200) throw new Error(`admin login failed: ${answer.status} ${answer.text}`);
  return { client, id: answer.body.id, username, password };
}

/** The same user signed in from one more browser. */
export async function anotherBrowser(server: TestServer, player: Player): Promise<Client> {
  const client = new Client(server.url);
  const answer = await client.post('/api/login', { username: player.username, password: player.password });
  expect(answer.status).toBe(200);
  return client;
}

/** Signs the player's own browser in again (after a sign-out, or sessions ended). */
export async function signIn(player: Player) {
  const answer = await player.client.post('/api/login', { username: player.username, password: player.password });
  expect(answer.status).toBe(200);
}

/** Two accounts that shared a phone number before the rule (a kept duplicate), as the migration left them. */
export async function sharingAPhone(server: TestServer, db: Db) {
  const phone = newPhone();
  const first = await registerPlayer(server, { phone });
  const second = await registerPlayer(server);
  await db`update public.users set phone = ${`0${phone}`}, phone_kept_duplicate = true where id = ${second.id}`;
  return [first, second] as const;
}

export function depositReference(): string {
  const letters = Array.from({ length: 4 }, () => String.fromCharCode(65 + randomInt(26))).join('');
  return `REF-${Date.now()}${randomInt(100, 999)}-${letters}`;
}

export function signedWebhook(
  event: Record<string, unknown> | string,
  options: { timestamp?: number; secret?: string } = {},
) {
  const raw = typeof event === 'string' ? event : JSON.stringify(event);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', options.secret ?? WEBHOOK_SECRET)
    .update(`${timestamp}.${raw}`)
    .digest('hex');
  return { raw, headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature } };
}

export async function sendWebhook(
  server: TestServer,
  event: Record<string, unknown>,
  options?: { timestamp?: number; secret?: string },
) {
  const { raw, headers } = signedWebhook(event, options);
  return new Client(server.url).post('/api/payments/webhook', raw, headers);
}

/** POST /api/wallet/deposit for `amount`, answered as it is (a refusal included). */
export const deposit = (player: Player, amount: number) =>
  player.client.post('/api/wallet/deposit', { amount, paymentMethod: 'upi', reference: depositReference() });

/** A deposit the player asked for and no gateway has confirmed yet; `extra` goes into the request body. */
export async function pendingDeposit(player: Player, amount = 1000, extra: Record<string, unknown> = {}) {
  const reference = depositReference();
  const answer = await player.client.post('/api/wallet/deposit', { amount, paymentMethod: 'upi', reference, ...extra });
  expect(answer.status).toBe(201);
  return { reference, id: answer.body.id as number, answer };
}

/** `count` pending deposits of a user, written straight into the ledger (pending rows move no money). */
export async function pendingDeposits(db: Db, userId: number, count: number): Promise<number[]> {
  const rows = await db`
    insert into public.transactions (user_id, amount, type, status, reference_id, payment_method)
    select ${userId}, 500 + g, 'deposit', 'pending', ${depositReference()} || '-' || g, 'upi'
    from generate_series(1, ${count}::int) g
    order by g
    returning id`;
  return rows.map((row) => row.id as number);
}

/** How many rows a user has in the ledger, whatever their type and status. */
export const transactionCount = async (db: Db, userId: number) =>
  (await db`select count(*)::int as n from public.transactions where user_id = ${userId}`)[0].n as number;

/** Follows `Link: rel="next"` from `path` to the end; `between` runs after each page. */
export async function walk(client: Client, path: string, between: () => Promise<unknown> = async () => {}) {
  const pages: number[][] = [];
  let url: string | null = path;
  while (url) {
    const answer = await client.get(url);
    expect(answer.status).toBe(200);
    pages.push(answer.body.map((row: { id: number }) => row.id));
    url = nextPageUrl(answer.headers.get('link'));
    await between();
  }
  return pages;
}

/** Deposits `amount` through the real path: POST /api/wallet/deposit, then the gateway's signed webhook. */
export async function fund(server: TestServer, player: Player, amount: number) {
  const reference = depositReference();
  const deposit = await player.client.post('/api/wallet/deposit', {
    amount,
    paymentMethod: 'upi',
    reference,
    status: 'pending',
  });
  if (deposit.status !== 201) throw new Error(`deposit failed: ${deposit.status} ${deposit.text}`);
  const hook = await sendWebhook(server, { reference, amount, status: 'success', gateway_txn_id: unique('gw') });
  if (hook.status !== 200) throw new Error(`webhook failed: ${hook.status} ${hook.text}`);
  return reference;
}

/** An upcoming (or, with live, started) match between teams 1 and 2, made through the admin API. */
export async function createMatch(admin: Player, options: { live?: boolean; team1?: number; team2?: number } = {}) {
  const created = await admin.client.post('/api/admin/matches', {
    team1_id: options.team1 ?? 1,
    team2_id: options.team2 ?? 2,
    start_time: new Date(Date.now() + 3_600_000).toISOString(),
    match_type: 't20',
    status: 'upcoming',
    venue: 'Wankhede Stadium',
  });
  if (created.status !== 201) throw new Error(`create match failed: ${created.status} ${created.text}`);
  if (options.live) {
    const started = await admin.client.patch(`/api/admin/matches/${created.body.id}/start`);
    if (started.status !== 200) throw new Error(`start failed: ${started.status} ${started.text}`);
  }
  return created.body as { id: number; team1_id: number; team2_id: number };
}

/** PATCH /api/admin/matches/:id/odds: the admin prices either side of a match or both, answered as it is (a refusal included). */
export const price = (admin: Player, matchId: number, odds: Record<string, unknown>) =>
  admin.client.patch(`/api/admin/matches/${matchId}/odds`, odds);

/** A calendar day in India Standard Time, as YYYY-MM-DD, `days` from today. */
export function istDay(days = 0): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
}

export async function balance(db: Db, userId: number): Promise<number> {
  const [row] = await db`select wallet_balance from public.users where id = ${userId}`;
  return row.wallet_balance;
}

/**
 * Waits until the settlement of a declared (or abandoned) match has settled its last bet: the server's
 * settlement workers do it in batches after the declaration answers. Fails after `ms`.
 */
export async function settled(db: Db, matchId: number, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const [run] = await db`select finished_at from app.settlement_runs where match_id = ${matchId}`;
    if (run?.finished_at) return;
    if (Date.now() > deadline) throw new Error(`match ${matchId} not settled within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The ledger invariant must hold after every test. */
export async function reconcile(db: Db) {
  return db.begin(async (tx) => {
    await tx`set local role service_role`;
    return await tx`select * from app.reconcile()`;
  });
}

/** What the tests of an API test file work with (see apiSuite). */
export interface ApiSuite {
  server: TestServer;
  db: Db;
  /** A signed-in admin, with `admin: true`. */
  admin: Player;
}

/**
 * The setting most API test files share, declared once: before their tests a server on the test database
 * (started with `server`'s options), a database client and, with `admin`, a signed-in admin; with
 * `reconciled`, the ledger invariant checked after every test; both stopped after all. The fields are set
 * by a beforeAll hook: read them in hooks and tests, not while the file is being collected.
 */
export function apiSuite(options: { admin?: boolean; reconciled?: boolean; server?: ServerOptions } = {}): ApiSuite {
  const suite = {} as ApiSuite;
  beforeAll(async () => {
    [suite.server, suite.db] = await Promise.all([startServer(options.server), database()]);
    if (options.admin) suite.admin = await createAdmin(suite.server, suite.db);
  });
  if (options.reconciled) afterEach(async () => expect(await reconcile(suite.db)).toEqual([]));
  afterAll(() => Promise.all([suite.server?.stop(), suite.db?.end()]));
  return suite;
}

export { startServer, type TestServer };

/**
 * Every request body example of the API's document (GET /api/openapi.json) is a request the server takes: each
 * is sent as written, by the caller its operation needs, and gets the operation's documented success status.
 * The examples name rows by id (match 1, team 1, bank account 1), people by name ('asha') and a deposit by its
 * reference, so they run on a database of this file's own, fresh from the migrations, in an order that makes
 * them true: the example that creates a row comes before the one that uses it. Only what no example can know
 * is the fixture's: a path's id and the second factor's current code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMigrations } from '../../scripts/lib/migrate.js';
import { createScratchDatabase, dropScratchDatabase } from '../../scripts/lib/scratch-database.js';
import { totpCode } from '../support/accounts.ts';
import {
  Client,
  createAdmin,
  database,
  hashPassword,
  registerPlayer,
  settled,
  signedWebhook,
  startServer,
  type Db,
  type Player,
  type TestServer,
} from '../support/api.ts';
import { requireEnv } from '../support/server.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  method: string;
  path: string;
  operationId: string;
  example: unknown;
  mediaType: string;
  success: string[];
}

/** The parts of an operation of the document this test reads. */
interface DocumentOperation {
  operationId: string;
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, unknown>;
}

/** The callers of the examples: 'asha' (the examples' player), another player and the admins. */
interface Callers {
  asha: Client;
  /** an admin whose password is the examples' 'correct-horse' (a second factor is for admins only) */
  ravi: Client;
  /** a player of the fixture's, for the examples that would stop asha playing (a time-out, a self-exclusion) */
  other: () => Promise<Player>;
  admin: Player;
}

/**
 * How each example is sent: by whom, at which path (its ids filled in), with what the example needs done
 * first. In the order they run; an operation whose example is missing here fails the test.
 */
interface Plan {
  as: (callers: Callers) => Client | Promise<Client>;
  path?: string;
  /** a body where the example cannot be sent as written (the second factor's current code) */
  body?: (example: Record<string, unknown>) => Record<string, unknown>;
  /** headers the example's request needs (the gateway's signature) */
  headers?: (raw: string) => Record<string, string>;
}

const state: { ashaId?: number; totpSecret?: string } = {};

const PLANS: Record<string, Plan> = {
  register: { as: ({ asha }) => asha },
  login: { as: ({ asha }) => asha },
  updateUser: { as: ({ asha }) => asha },
  setUpTwoFactor: { as: ({ ravi }) => ravi },
  confirmTwoFactor: {
    as: ({ ravi }) => ravi,
    body: (example) => ({ ...example, code: totpCode(state.totpSecret!) }),
  },
  changePassword: { as: ({ asha }) => asha },
  answerLimitPrompt: { as: ({ asha }) => asha },
  setDepositLimit: { as: ({ asha }) => asha },
  setRealityCheck: { as: ({ asha }) => asha },
  deposit: { as: ({ asha }) => asha },
  submitSandboxPayment: { as: ({ asha }) => asha },
  paymentWebhook: { as: () => new Client(server.url), headers: (raw) => signedWebhook(raw).headers },
  addBankAccount: { as: ({ asha }) => asha },
  adminCreateMatch: { as: ({ admin }) => admin.client },
  adminSetMatchOdds: { as: ({ admin }) => admin.client, path: '/api/admin/matches/1/odds' },
  adminUpdateLive: { as: ({ admin }) => admin.client, path: '/api/admin/matches/1/update-live' },
  placeBet: { as: ({ asha }) => asha },
  withdraw: { as: ({ asha }) => asha },
  adminAdjustWallet: { as: ({ admin }) => admin.client, path: '/api/admin/users/{asha}/wallet' },
  adminSetUserStatus: { as: ({ admin }) => admin.client, path: '/api/admin/users/{asha}/status' },
  adminDeclareWinner: { as: ({ admin }) => admin.client, path: '/api/admin/matches/1/declare-winner' },
  adminProposeResultCorrection: { as: ({ admin }) => admin.client, path: '/api/admin/matches/1/correct-result' },
  adminUpdateSettings: { as: ({ admin }) => admin.client },
  takeTimeout: { as: async ({ other }) => (await other()).client },
  selfExclude: { as: async ({ other }) => (await other()).client },
};

let server: TestServer;
let db: Db;
let databaseUrl: string;
const serverUrl = requireEnv('DATABASE_URL');

describe('the examples of the API document', () => {
  let operations: Operation[];
  let callers: Callers;

  beforeAll(async () => {
    databaseUrl = await createScratchDatabase(serverUrl, 'cricket_examples');
    await pushMigrations(databaseUrl);
    [server, db] = await Promise.all([startServer({ databaseUrl }), database(databaseUrl)]);
    const document = (await new Client(server.url).get('/api/openapi.json')).body;
    operations = Object.entries(document.paths as Record<string, Record<string, DocumentOperation>>).flatMap(
      ([path, item]) =>
        METHODS.filter((method) => item[method]?.requestBody).flatMap((method) => {
          const operation = item[method];
          const [mediaType, content] = Object.entries(operation.requestBody!.content)[0];
          if (content.example === undefined) return [];
          const success = Object.keys(operation.responses).filter((status) => /^[23]/.test(status));
          return [{ method, path, operationId: operation.operationId, example: content.example, mediaType, success }];
        }),
    );
    callers = {
      asha: new Client(server.url),
      ravi: await adminWithPassword('correct-horse'),
      other: () => registerPlayer(server),
      admin: await createAdmin(server, db),
    };
  }, 180_000);

  afterAll(async () => {
    await Promise.all([server?.stop(), db?.end()]);
    if (databaseUrl) await dropScratchDatabase(serverUrl, databaseUrl);
  });

  it('has a way to send every operation that documents one', () => {
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(Object.keys(PLANS).sort());
  });

  it('each gets its documented success status', async () => {
    const answered: Record<string, number> = {};
    for (const [operationId, plan] of Object.entries(PLANS)) {
      const operation = operations.find((candidate) => candidate.operationId === operationId);
      if (!operation) continue;
      await before(operationId, callers);
      const client = await plan.as(callers);
      const example = operation.example as Record<string, unknown>;
      const body = plan.body ? plan.body(example) : example;
      const form = operation.mediaType === 'application/x-www-form-urlencoded';
      const raw = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
      const path = (plan.path ?? operation.path).replace('{asha}', String(state.ashaId));
      const answer = await client.call(operation.method.toUpperCase(), path, raw, {
        'content-type': operation.mediaType,
        ...plan.headers?.(raw),
      });
      answered[operationId] = answer.status;
      expect(operation.success, `${operationId}: ${answer.status} ${answer.text}`).toContain(String(answer.status));
      after(operationId, answer.body);
    }
    expect(Object.keys(answered)).toHaveLength(operations.length);
  }, 120_000);
});

/** A signed-in admin with this password. */
async function adminWithPassword(password: string): Promise<Client> {
  await db.begin(async (tx) => {
    await tx`set local role service_role`;
    await tx`select app.create_admin(${'ravi'}, ${hashPassword(password)}, ${'Ravi'}, ${'ravi@example.com'})`;
  });
  const client = new Client(server.url);
  expect((await client.post('/api/login', { username: 'ravi', password })).status).toBe(200);
  return client;
}

/** What an example needs done before it that no other example does. */
async function before(operationId: string, { asha, admin }: Callers) {
  if (operationId === 'adminUpdateLive') {
    const started = await admin.client.patch('/api/admin/matches/1/start');
    expect(started.status).toBe(200);
  }
  if (operationId === 'paymentWebhook') {
    // the gateway's word on a deposit of its own: the example deposit was paid on the sandbox's page
    const deposit = { amount: 1000, paymentMethod: 'upi', reference: 'REF-1764201600000-ASDF' };
    expect((await asha.post('/api/wallet/deposit', deposit)).status).toBe(201);
  }
  if (operationId === 'adminProposeResultCorrection') await settled(db, 1);
}

/** What an answer gives the examples after it. */
function after(operationId: string, body: { id?: number; secret?: string }) {
  if (operationId === 'register') state.ashaId = body.id;
  if (operationId === 'setUpTwoFactor') state.totpSecret = body.secret;
}

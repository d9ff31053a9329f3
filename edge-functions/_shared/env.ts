/**
 * Configuration of the edge function, read once from the environment. Defaults are for local use only;
 * see README.md "Configuration".
 */
function read(name: string): string | undefined {
  const value = Deno.env.get(name);
  return value === undefined || value === '' ? undefined : value;
}

/** The sandbox gateway lives inside this function. */
export const SANDBOX_GATEWAY_PATH = '/api/payments/sandbox';

/**
 * LOCAL-ONLY webhook secret: the only key the sandbox gateway signs with, and the webhook's key only while
 * the sandbox is on. It is public (it is in this file): never rely on it in production, where the sandbox
 * is off and, without PAYMENT_WEBHOOK_SECRET, the webhook refuses every call.
 */
export const LOCAL_SANDBOX_WEBHOOK_SECRET = 'local-sandbox-only-webhook-secret';

const webhookSecret = read('PAYMENT_WEBHOOK_SECRET');
/**
 * Why the sandbox gateway stays off although PAYMENT_SANDBOX=true asks for it, or undefined. It signs with a
 * public key, so anyone who reaches it could mark their own deposit paid: it runs only in the local server on
 * loopback (which refuses any other address without PAYMENT_WEBHOOK_SECRET: scripts/lib/exposure.js), never
 * on Supabase (SUPABASE_DB_URL set), and never beside a real gateway's webhook key.
 */
function sandboxRefusal(): string | undefined {
  if (read('SUPABASE_DB_URL')) return 'the function runs on Supabase, where anyone could reach it';
  if (webhookSecret !== undefined) return 'PAYMENT_WEBHOOK_SECRET is set';
  return undefined;
}
const sandboxRequested = read('PAYMENT_SANDBOX') === 'true';
const paymentSandbox = sandboxRequested && sandboxRefusal() === undefined;
if (sandboxRequested && !paymentSandbox) {
  console.warn(
    JSON.stringify({
      level: 'warn',
      msg: `PAYMENT_SANDBOX=true ignored: ${sandboxRefusal()}, so the sandbox gateway is off`,
    }),
  );
}

/**
 * LOCAL-ONLY key of the device cookie's signature (HMAC-SHA256). It is public (it is in this file): set
 * DEVICE_COOKIE_SECRET wherever the server is reachable by others, or anyone could sign a device cookie
 * (they would still need a device id that has signed in as the player, and the password).
 */
export const LOCAL_DEVICE_COOKIE_SECRET = 'local-only-device-cookie-secret';

/** Whether admins must sign in with a second factor before any admin route answers them. */
export type AdminMfa = 'required' | 'optional';

/**
 * ADMIN_MFA: `required` or `optional`. Required by default on Supabase (SUPABASE_DB_URL set), where the
 * admin pages face the internet; optional by default for the local runtime (`npm start` says so).
 */
function adminMfa(): AdminMfa {
  const value = read('ADMIN_MFA') ?? (read('SUPABASE_DB_URL') ? 'required' : 'optional');
  if (value !== 'required' && value !== 'optional')
    throw new Error(`ADMIN_MFA must be required or optional, not "${value}"`);
  return value;
}

/**
 * TRUST_PROXY_HOPS: how many proxies stand in front of us, each appending the address it saw to
 * X-Forwarded-For (rate limits then key on the entry the farthest of them appended: the client). 0: clients
 * reach us directly and the header, which they could forge, is ignored (the local runtime). Default 1 on
 * Supabase (SUPABASE_DB_URL set: its edge), else 0; the older TRUST_PROXY=true|false means 1|0.
 */
function trustProxyHops(): number {
  const legacy = read('TRUST_PROXY');
  const value =
    read('TRUST_PROXY_HOPS') ??
    (legacy !== undefined ? (legacy === 'true' ? '1' : '0') : read('SUPABASE_DB_URL') ? '1' : '0');
  if (!/^\d+$/.test(value)) throw new Error(`TRUST_PROXY_HOPS must be a whole number ≥ 0, not "${value}"`);
  return Number(value);
}

/**
 * Supabase injects SUPABASE_DB_URL into hosted functions; the local runtime passes DATABASE_URL, which also
 * wins on Supabase when set there (e.g. Supavisor's transaction pooler, port 6543, with DATABASE_PREPARE=false).
 */
const databaseUrl = read('DATABASE_URL') ?? read('SUPABASE_DB_URL') ?? 'postgresql://postgres@127.0.0.1:54322/postgres';

export const env = {
  databaseUrl,
  /**
   * The live feed's LISTEN connection. A transaction pooler (Supavisor's port 6543, PgBouncer in transaction
   * mode) hands each transaction whichever server connection is free, so a LISTEN through it would hear
   * nothing: behind one, point DATABASE_LISTEN_URL at a direct (or session-pooled) connection.
   */
  databaseListenUrl: read('DATABASE_LISTEN_URL') ?? databaseUrl,
  /** Connections in this process's pool (the live feed's LISTEN connection comes on top). */
  databasePoolMax: Number(read('DATABASE_POOL_MAX') ?? 10),
  /** The transaction pooler (Supavisor) cannot use prepared statements. */
  databasePrepare: read('DATABASE_PREPARE') !== 'false',
  /** How many proxies in front of us append to X-Forwarded-For: see trustProxyHops(). */
  trustProxyHops: trustProxyHops(),
  /** PAYMENT_SANDBOX=true (without PAYMENT_WEBHOOK_SECRET) serves the sandbox gateway pages (local runtime and tests only). */
  paymentSandbox,
  /**
   * Where the browser goes after a deposit is created (query amount, username, reference are appended).
   * Default: the sandbox gateway when it is on; otherwise none, and deposits answer 503.
   */
  paymentGatewayUrl: read('PAYMENT_GATEWAY_URL') ?? (paymentSandbox ? SANDBOX_GATEWAY_PATH : undefined),
  /** HMAC-SHA256 key of the gateway's webhook signatures. */
  paymentWebhookSecret: webhookSecret ?? (paymentSandbox ? LOCAL_SANDBOX_WEBHOOK_SECRET : undefined),
  /** Whether an admin without two-factor sign-in is refused every admin route until they turn it on. */
  adminMfa: adminMfa(),
  /** HMAC-SHA256 key of the device cookie (a browser that has signed in as a user: rate limits spare it). */
  deviceCookieSecret: read('DEVICE_COOKIE_SECRET') ?? LOCAL_DEVICE_COOKIE_SECRET,
  /** Concurrent GET /api/live/matches streams per process; more are refused with 503. */
  liveMaxStreams: Number(read('LIVE_MAX_STREAMS') ?? 2000),
  /** Events a live stream may fall behind before the client is dropped (it reconnects and resumes). */
  liveClientQueue: Number(read('LIVE_CLIENT_QUEUE') ?? 256),
  /**
   * The Supabase project's JWT secret (Project Settings → API): signs the tokens with which a player joins
   * their private Realtime topic of results (GET /api/live/token). Unset: no such tokens (locally, results
   * come through the live stream).
   */
  realtimeJwtSecret: read('SUPABASE_JWT_SECRET'),
  /** Bets a settlement batch holds (each batch is one transaction; its players wait for it). */
  settlementBatchSize: Number(read('SETTLEMENT_BATCH_SIZE') ?? 500),
  /**
   * Seconds between this process's sweeps of unfinished settlement runs (0: none). The local runtime's
   * processes live long and sweep; on Supabase (SUPABASE_DB_URL set) a function instance does not, and
   * pg_cron sweeps in the database.
   */
  settlementSweepSeconds: Number(read('SETTLEMENT_SWEEP_SECONDS') ?? (read('SUPABASE_DB_URL') ? 0 : 30)),
};

export type Env = typeof env;

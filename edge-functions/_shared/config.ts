/**
 * Configuration of the edge function, read from the environment by `readConfig` (pure: `env.ts` gives it
 * Deno's environment, the unit tests a map). Defaults are for local use only; see README.md "Configuration".
 * A setting that would leave a deployment open to anyone is refused with an Error naming it: the function
 * then does not start.
 */
import { decodeBase64 } from './base64url.ts';
/** Reads one variable of the environment (undefined when unset). */
export type Read = (name: string) => string | undefined;

/** The sandbox gateway lives inside this function. */
export const SANDBOX_GATEWAY_PATH = '/api/payments/sandbox';

/**
 * LOCAL-ONLY webhook secret: the only key the sandbox gateway signs with, and the webhook's key only while
 * the sandbox is on. It is public (it is in this file): never rely on it in production, where the sandbox
 * is off and, without PAYMENT_WEBHOOK_SECRET, the webhook refuses every call.
 */
export const LOCAL_SANDBOX_WEBHOOK_SECRET = 'local-sandbox-only-webhook-secret';

/**
 * LOCAL-ONLY key of the device cookie's signature (HMAC-SHA256). It is public (it is in this file), so it is
 * used only where nobody else can reach the server: on Supabase DEVICE_COOKIE_SECRET is required (here), and
 * the local server refuses a HOST beyond loopback without it (scripts/lib/exposure.js).
 */
export const LOCAL_DEVICE_COOKIE_SECRET = 'local-only-device-cookie-secret';

/** The length of TOTP_ENCRYPTION_KEY: an AES-256 key. */
export const TOTP_KEY_BYTES = 32;

/** Whether admins must sign in with a second factor before any admin route answers them. */
export type AdminMfa = 'required' | 'optional';

export function readConfig(get: Read) {
  const read = (name: string) => {
    const value = get(name);
    return value === undefined || value === '' ? undefined : value;
  };
  /** Supabase injects SUPABASE_DB_URL into hosted functions: the function faces the internet there. */
  const onSupabase = read('SUPABASE_DB_URL') !== undefined;
  const warnings: string[] = [];

  const webhookSecret = read('PAYMENT_WEBHOOK_SECRET');
  /**
   * Why the sandbox gateway stays off although PAYMENT_SANDBOX=true asks for it, or undefined. It signs with
   * a public key, so anyone who reaches it could mark their own deposit paid: it runs only in the local
   * server on loopback (scripts/lib/exposure.js), never on Supabase, and never beside a real gateway's key.
   */
  const sandboxRefusal = onSupabase
    ? 'the function runs on Supabase, where anyone could reach it'
    : webhookSecret !== undefined
      ? 'PAYMENT_WEBHOOK_SECRET is set'
      : undefined;
  const sandboxRequested = read('PAYMENT_SANDBOX') === 'true';
  const paymentSandbox = sandboxRequested && sandboxRefusal === undefined;
  if (sandboxRequested && !paymentSandbox)
    warnings.push(`PAYMENT_SANDBOX=true ignored: ${sandboxRefusal}, so the sandbox gateway is off`);

  /**
   * ADMIN_MFA: `required` or `optional`. Required by default on Supabase, where the admin pages face the
   * internet; optional by default for the local runtime (`npm start` says so).
   */
  const adminMfa = read('ADMIN_MFA') ?? (onSupabase ? 'required' : 'optional');
  if (adminMfa !== 'required' && adminMfa !== 'optional')
    throw new Error(`ADMIN_MFA must be required or optional, not "${adminMfa}"`);

  /**
   * TRUST_PROXY_HOPS: how many proxies stand in front of us, each appending the address it saw to
   * X-Forwarded-For (rate limits then key on the entry the farthest of them appended: the client). Believed
   * only for requests that show PROXY_SECRET (session.ts): anyone who reaches the function directly could
   * write the header. Default 1 on Supabase (its edge), else 0; the older TRUST_PROXY=true|false means 1|0.
   */
  const legacyTrust = read('TRUST_PROXY');
  const hops =
    read('TRUST_PROXY_HOPS') ??
    (legacyTrust !== undefined ? (legacyTrust === 'true' ? '1' : '0') : onSupabase ? '1' : '0');
  if (!/^\d+$/.test(hops)) throw new Error(`TRUST_PROXY_HOPS must be a whole number ≥ 0, not "${hops}"`);
  const trustProxyHops = Number(hops);
  const proxySecret = read('PROXY_SECRET');
  if (trustProxyHops > 0 && proxySecret === undefined)
    warnings.push(
      `TRUST_PROXY_HOPS=${trustProxyHops} is not used: without PROXY_SECRET no request can show it came through the proxy, ` +
        'so X-Forwarded-For is ignored and the connection is the client',
    );

  const deviceCookieSecret = read('DEVICE_COOKIE_SECRET');
  if (onSupabase && deviceCookieSecret === undefined)
    throw new Error(
      'DEVICE_COOKIE_SECRET is not set: on Supabase the device cookie needs a key of its own (a long random value, ' +
        'e.g. `openssl rand -base64 32`); the local default is public, so anyone could sign device cookies',
    );

  const totpKeyText = read('TOTP_ENCRYPTION_KEY');
  if (onSupabase && totpKeyText === undefined)
    throw new Error(
      'TOTP_ENCRYPTION_KEY is not set: on Supabase the two-factor secrets are encrypted with it ' +
        '(32 random bytes in base64, e.g. `openssl rand -base64 32`; keep it: without it no admin can sign in)',
    );

  /**
   * The database: DATABASE_URL (the local runtime; on Supabase e.g. Supavisor's transaction pooler, port
   * 6543, with DATABASE_PREPARE=false), else the SUPABASE_DB_URL Supabase injects.
   */
  const databaseUrl =
    read('DATABASE_URL') ?? read('SUPABASE_DB_URL') ?? 'postgresql://postgres@127.0.0.1:54322/postgres';

  const config = {
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
    /** How many proxies in front of us append to X-Forwarded-For (believed with PROXY_SECRET only). */
    trustProxyHops,
    /** What a request's X-Proxy-Secret must be for X-Forwarded-For (and -Proto) to be believed; none: never. */
    proxySecret,
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
    adminMfa: adminMfa as AdminMfa,
    /** HMAC-SHA256 key of the device cookie (a browser that has signed in as a user: rate limits spare it). */
    deviceCookieSecret: deviceCookieSecret ?? LOCAL_DEVICE_COOKIE_SECRET,
    /**
     * AES-256-GCM key of the two-factor secrets kept in the database (second-factor.ts); undefined: this
     * server cannot read or set any (only where the function is not on Supabase).
     */
    totpEncryptionKey: totpKeyText === undefined ? undefined : totpKey(totpKeyText),
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
    /**
     * Bets a settlement batch holds (each batch is one transaction; its players wait for it). Unset: the
     * database's default (app.settle_step, 500), which pg_cron's sweep uses too.
     */
    settlementBatchSize: read('SETTLEMENT_BATCH_SIZE') === undefined ? null : Number(read('SETTLEMENT_BATCH_SIZE')),
    /**
     * Seconds between this process's sweeps of unfinished settlement runs (0: none). The local runtime's
     * processes live long and sweep; on Supabase a function instance does not, and pg_cron sweeps in the
     * database.
     */
    settlementSweepSeconds: Number(read('SETTLEMENT_SWEEP_SECONDS') ?? (onSupabase ? 0 : 30)),
  };
  return { config, warnings };
}

export type Config = ReturnType<typeof readConfig>['config'];

/** TOTP_ENCRYPTION_KEY: 32 bytes in base64 (or base64url), as `openssl rand -base64 32` prints them. */
function totpKey(text: string): Uint8Array {
  let key: Uint8Array | undefined;
  try {
    key = decodeBase64(text.trim());
  } catch {
    // not base64: refused below
  }
  if (key?.length !== TOTP_KEY_BYTES)
    throw new Error('TOTP_ENCRYPTION_KEY must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)');
  return key;
}

/**
 * Turning failures into the API's error answers: always `{"message": …}`, never a stack trace or SQL.
 *
 * Database functions raise errors with SQLSTATE `BT` + HTTP status (BT400, BT403, BT404, BT409, BT429),
 * so the status comes from the code, never from parsing message text.
 */
import { messages } from '../../src/domain/messages.ts';

export class HttpError extends Error {
  /**
   * retryAfter: seconds, sent as the Retry-After header (429 from the rate limits, 503 database away, 504).
   * fields: more members of the answer beside `message` (a sign-in's `mfa_required`).
   */
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter?: number,
    readonly fields?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const DOMAIN_ERROR = /^BT([1-5]\d\d)$/;

/**
 * Safety net: Postgres data exceptions caused by the input itself (a NUL character 22021, text that is
 * not a number 22P02, a number out of range 22003, a bad or out-of-range date/time 22007/22008) are the
 * client's fault, not a bug. The schemas should refuse such input first; if one slips through the answer
 * is 400 'Invalid input', never the SQL text.
 */
const INPUT_ERRORS = new Set(['22021', '22P02', '22003', '22007', '22008']);
export const INVALID_INPUT = 'Invalid input';

/** The seconds a rate limit's refusal (BT429) asks the client to wait: its DETAIL (app.refuse_attempt). */
function retrySeconds(error: Error): number | undefined {
  const detail = (error as { detail?: unknown }).detail;
  return typeof detail === 'string' && /^\d{1,9}$/.test(detail) ? Number(detail) : undefined;
}

export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable';
/** Seconds a client is asked to wait while the database is away (a supervised restart takes a few). */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The database cannot be reached right now, through no fault of the request: the driver's connection
 * failures (nothing listening, the connection dropped or timed out) and the server's own "not now"
 * answers: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up, recovering),
 * and class 08 (connection exception).
 */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  // too many connections: a connection refused before anything was sent
  '53300',
]);

export function isDatabaseUnavailable(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return false;
  return CONNECTION_FAILURES.has(error.code) || error.code.startsWith('08');
}

/**
 * A request's statements went out to the database and no answer to its commit came back (the connection
 * was lost, or stalled past the wait): it may have committed or not (db.ts `transaction`). Answered 504
 * with `"outcome": "unknown"`; an Idempotency-Key's replay tells which.
 */
export class OutcomeUnknown extends Error {
  readonly code = 'OUTCOME_UNKNOWN';
  constructor() {
    super(messages.outcomeUnknown);
  }
}

/** Status and message for a failure, or undefined when it is unexpected (a bug: answer 500). */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (isDatabaseUnavailable(error)) return new HttpError(503, SERVICE_UNAVAILABLE, UNAVAILABLE_RETRY_SECONDS);
  if (error instanceof OutcomeUnknown) {
    return new HttpError(504, messages.outcomeUnknown, UNAVAILABLE_RETRY_SECONDS, { outcome: 'unknown' });
  }
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    const match = DOMAIN_ERROR.exec(error.code);
    if (match) {
      const status = Number(match[1]);
      return new HttpError(status, error.message, status === 429 ? retrySeconds(error) : undefined);
    }
    if (INPUT_ERRORS.has(error.code)) return new HttpError(400, INVALID_INPUT);
  }
  return undefined;
}

/** The refusal (a 4xx) an error stands for, or undefined when it is none (the database away, a bug). */
export function refusalOf(error: unknown): HttpError | undefined {
  const known = toHttpError(error);
  return known && known.status < 500 ? known : undefined;
}

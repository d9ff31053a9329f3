/**
 * The one fetch wrapper of the SPA: cookies on every call, JSON bodies with a JSON content
 * type, and any non-OK answer raised as an ApiError whose message reads '{status}: {message}'.
 *
 * Money writes (MONEY_WRITES) carry an Idempotency-Key, one per call — one user action — and kept across
 * that call's own retries: when the server could not learn the outcome (504) or no answer came at all (the
 * network), the call is sent again with the same key until an answer says what happened — the stored result
 * (the bet, 'Bet placed successfully') or the refusal — so a retry never places a second bet.
 */
import { messages } from '../domain/messages.ts';
import { nextPageUrl } from '../domain/paging.ts';

export class ApiError extends Error {
  readonly status: number;
  /** The answer's JSON when it was JSON (e.g. a sign-in's `mfa_required`), else null. */
  readonly body: Record<string, unknown> | null;

  constructor(status: number, message: string, body: Record<string, unknown> | null = null) {
    super(`${status}: ${message}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  if (!text) return new ApiError(response.status, response.statusText || 'Request failed');
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.message === 'string' && body.message) return new ApiError(response.status, body.message, body);
  } catch {
    // not JSON: show the text itself
  }
  return new ApiError(response.status, text);
}

/**
 * The routes that move money, as the API's document names them (`{id}`: a path parameter). Each declares
 * the Idempotency-Key header there (tests/api/money-writes.test.ts checks that the two lists agree).
 */
export const MONEY_WRITES = [
  'POST /api/bets',
  'POST /api/wallet/deposit',
  'POST /api/wallet/withdraw',
  'POST /api/admin/users/{id}/wallet',
  'PATCH /api/admin/transactions/{id}/approve',
  'PATCH /api/admin/transactions/{id}/reject',
  'PATCH /api/admin/matches/{id}/declare-winner',
  'PATCH /api/admin/matches/{id}/abandon',
  'POST /api/admin/matches/{id}/correct-result',
  'POST /api/admin/corrections/{id}/approve',
  'POST /api/admin/corrections/{id}/reject',
] as const;

const moneyWrites = MONEY_WRITES.map((route) => {
  const [method, path] = route.split(' ');
  return { method, path: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`) };
});

function isMoneyWrite(method: string, url: string): boolean {
  const path = new URL(url, 'http://relative.invalid').pathname;
  return moneyWrites.some((write) => write.method === method && write.path.test(path));
}

/** Waits before sending a money write again when the answer gave no Retry-After; after the last, it is unknown. */
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000];
const MAX_RETRY_AFTER_S = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fetchOnce(method: string, url: string, body: unknown, key?: string): Promise<Response> {
  return fetch(url, {
    method,
    credentials: 'include',
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * A money write, sent until its outcome is known. An answer of 504, or none at all (the network), leaves it
 * unknown: it is sent again with the same key, after the answer's Retry-After or a growing wait. Once it is
 * unknown, a 503 (that try wrote nothing) does not make it known either. Offline, nothing is sent.
 */
async function sendMoneyWrite(method: string, url: string, body: unknown): Promise<Response> {
  const key = crypto.randomUUID();
  for (let attempt = 0; ; attempt++) {
    let response: Response | undefined;
    try {
      response = await fetchOnce(method, url, body, key);
    } catch (error) {
      if (attempt === 0 && !navigator.onLine) throw error;
    }
    const unknown = !response || response.status === 504 || (attempt > 0 && response.status === 503);
    if (!unknown) return response!;
    if (attempt === RETRY_DELAYS_MS.length) {
      if (response?.status === 504) return response;
      throw new ApiError(504, messages.outcomeUnknown, { message: messages.outcomeUnknown, outcome: 'unknown' });
    }
    const retryAfter = response?.headers.get('Retry-After');
    await sleep(
      retryAfter && /^\d+$/.test(retryAfter)
        ? Math.min(Number(retryAfter), MAX_RETRY_AFTER_S) * 1000
        : RETRY_DELAYS_MS[attempt],
    );
  }
}

async function send(method: string, url: string, body?: unknown): Promise<Response> {
  const response = isMoneyWrite(method, url)
    ? await sendMoneyWrite(method, url, body)
    : await fetchOnce(method, url, body);
  if (!response.ok) throw await failure(response);
  return response;
}

async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await send(method, url, body);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** One page of a list (src/domain/paging.ts): its rows, the next page's URL, and the count if the API sent one. */
export interface ListPage<T> {
  items: T[];
  next: string | null;
  total: number | null;
  /** X-Total-Stake: the rupees staked on a match's open bets */
  stake: number | null;
}

export const api = {
  get: <T>(url: string) => request<T>('GET', url),
  getPage: async <T>(url: string): Promise<ListPage<T>> => {
    const response = await send('GET', url);
    const header = (name: string) => (response.headers.get(name) === null ? null : Number(response.headers.get(name)));
    return {
      items: (await response.json()) as T[],
      next: nextPageUrl(response.headers.get('Link')),
      total: header('X-Total-Count'),
      stake: header('X-Total-Stake'),
    };
  },
  /** A read that yields null instead of failing on 401 (the current-user lookup). */
  getOrNull: async <T>(url: string): Promise<T | null> => {
    try {
      return await request<T>('GET', url);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  post: <T>(url: string, body?: unknown) => request<T>('POST', url, body),
  patch: <T>(url: string, body?: unknown) => request<T>('PATCH', url, body),
  put: <T>(url: string, body?: unknown) => request<T>('PUT', url, body),
  delete: <T>(url: string) => request<T>('DELETE', url),
  /** A file (e.g. a CSV statement); failures raise ApiError like every other call. */
  getBlob: async (url: string): Promise<Blob> => (await send('GET', url)).blob(),
};

/** The text a destructive toast shows for a failed call. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

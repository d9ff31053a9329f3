/**
 * The one fetch wrapper of the SPA: cookies on every call, JSON bodies with a JSON content
 * type, and any non-OK answer raised as an ApiError whose message reads '{status}: {message}'.
 */
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

async function send(method: string, url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers:
      body === undefined
        ? { Accept: 'application/json' }
        : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
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

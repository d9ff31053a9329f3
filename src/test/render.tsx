/** Renders a component with the app's providers, a fresh query cache and a memory router. */
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { system } from '../components/ui/system.ts';
import { Toaster } from '../components/ui/toaster.tsx';

export function renderWithProviders(
  ui: ReactElement,
  { route = '/', queryClient }: { route?: string; queryClient?: QueryClient } = {},
) {
  const client =
    queryClient ??
    new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 }, mutations: { retry: false } } });
  const user = userEvent.setup();
  const result = render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return { ...result, user, queryClient: client };
}

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
}

/** The calls that send something (a screen may read more, e.g. the player's limits, as it renders). */
export const writes = (calls: RecordedCall[]) => calls.filter((call) => call.method !== 'GET');

const idempotencyKeys = new WeakMap<RecordedCall, string>();
/** The Idempotency-Key a recorded call carried (every money write has one), else undefined. */
export const idempotencyKeyOf = (call: RecordedCall) => idempotencyKeys.get(call);

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (call: RecordedCall) => Answer | undefined;

/** Replaces fetch with a table of `'METHOD /path'` handlers and records every call. */
export function mockApi(routes: Record<string, Handler | Answer>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    // the client calls the page's own origin: a call is recorded by its path and query
    const url = String(input).replace(/^https?:\/\/[^/]+/, '');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const call = { method, url, body };
    calls.push(call);
    const key = new Headers(init?.headers).get('Idempotency-Key');
    if (key) idempotencyKeys.set(call, key);
    const entry = routes[`${method} ${url}`] ?? routes[`${method} ${url.split('?')[0]}`];
    const answer = typeof entry === 'function' ? entry(call) : entry;
    if (!answer) return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

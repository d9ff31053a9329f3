/**
 * The sandbox gateway's answer when the database goes away while it applies the payment: the payment's
 * statement went out and no answer came, so whether it was applied is unknown, and its 504 page says so and
 * when to try again (Retry-After), like every other 504 of the API. The database "goes away" at the right
 * moment through a proxy that cuts the connection that carries the payment's statement.
 */
import { createServer, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositReference, registerPlayer, startServer, type TestServer } from '../support/api.ts';
import { requireEnv } from '../support/server.ts';

/** A proxy to PostgreSQL that drops any connection on which `cutAt` is sent; its URL and a close. */
async function cuttingProxy(targetUrl: string, cutAt: string) {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const end = () => [client, upstream].forEach((socket) => socket.destroy());
    client.on('data', (chunk) => (chunk.includes(cutAt) ? end() : upstream.write(chunk)));
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(targetUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

describe('sandbox gateway while the database goes away', () => {
  let proxy: Awaited<ReturnType<typeof cuttingProxy>>;
  let server: TestServer;

  beforeAll(async () => {
    proxy = await cuttingProxy(requireEnv('DATABASE_URL'), 'complete_deposit');
    server = await startServer({ databaseUrl: proxy.url });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
  });

  it('answers its 504 page with Retry-After', async () => {
    const player = await registerPlayer(server);
    const reference = depositReference();
    expect(
      (await player.client.post('/api/wallet/deposit', { amount: 1000, paymentMethod: 'upi', reference })).status,
    ).toBe(201);
    const paid = await player.client.post(
      '/api/payments/sandbox',
      new URLSearchParams({ amount: '1000', reference, outcome: 'success' }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    );
    expect(paid.status).toBe(504);
    expect(paid.headers.get('retry-after')).toBe('5');
    expect(paid.text).toContain('Payment not confirmed');
    expect(paid.text).toContain('We could not confirm this request. Check before trying again.');
  });
});

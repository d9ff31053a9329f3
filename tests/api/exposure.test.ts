/**
 * Beyond loopback the local server needs a real payment gateway's webhook key (the sandbox gateway's key is
 * public, so a reachable sandbox would let anyone mark their own deposits paid) and a device-cookie key of its
 * own (the local one is public, so anyone could sign the cookie that spares a player's own browser from
 * throttling); on Supabase the function refuses to start without the latter.
 */
import { describe, expect, it } from 'vitest';
import { runScript } from '../support/local-runtime.ts';
import { Client, startServer } from '../support/api.ts';
import { requireEnv } from '../support/server.ts';

describe('listening beyond loopback', () => {
  it('npm start refuses without PAYMENT_WEBHOOK_SECRET, naming it, before it starts anything', async () => {
    const started = await runScript('scripts/start.js', [], { HOST: '0.0.0.0', PAYMENT_WEBHOOK_SECRET: '' });
    expect(started.code).toBe(1);
    expect(started.output).toContain(
      'HOST=0.0.0.0 lets other machines reach the server, but PAYMENT_WEBHOOK_SECRET is not set: set PAYMENT_WEBHOOK_SECRET',
    );
    expect(started.output).not.toContain('PostgreSQL');
  });

  it('npm start refuses without DEVICE_COOKIE_SECRET, naming it, before it starts anything', async () => {
    const started = await runScript('scripts/start.js', [], {
      HOST: '0.0.0.0',
      PAYMENT_WEBHOOK_SECRET: 'real-gateway-secret-for-tests',
      DEVICE_COOKIE_SECRET: '',
    });
    expect(started.code).toBe(1);
    expect(started.output).toContain(
      'HOST=0.0.0.0 lets other machines reach the server, but DEVICE_COOKIE_SECRET is not set: set DEVICE_COOKIE_SECRET',
    );
    expect(started.output).not.toContain('PAYMENT_WEBHOOK_SECRET is not set');
    expect(started.output).not.toContain('PostgreSQL');
  });

  it('a server worker started on its own refuses too', async () => {
    await expect(startServer({ env: { HOST: '0.0.0.0', PAYMENT_WEBHOOK_SECRET: '' } })).rejects.toThrow(
      'server exited (1) before listening',
    );
    await expect(
      startServer({
        env: { HOST: '0.0.0.0', PAYMENT_WEBHOOK_SECRET: 'real-gateway-secret-for-tests', DEVICE_COOKIE_SECRET: '' },
      }),
    ).rejects.toThrow('server exited (1) before listening');
  });

  it('on Supabase (SUPABASE_DB_URL set) the function does not start without DEVICE_COOKIE_SECRET', async () => {
    await expect(
      startServer({ env: { SUPABASE_DB_URL: requireEnv('DATABASE_URL'), DEVICE_COOKIE_SECRET: '' } }),
    ).rejects.toThrow('server exited (1) before listening');
  });

  it('on Supabase (SUPABASE_DB_URL set) the sandbox gateway is off even when asked for', async () => {
    const server = await startServer({
      env: { PAYMENT_SANDBOX: 'true', SUPABASE_DB_URL: requireEnv('DATABASE_URL'), DEVICE_COOKIE_SECRET: 'device-key' },
    });
    try {
      expect(
        (await new Client(server.url).get('/api/payments/sandbox?amount=1000&username=x&reference=REF-1-AAAA')).status,
      ).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('with PAYMENT_WEBHOOK_SECRET and DEVICE_COOKIE_SECRET the server listens, and the sandbox gateway is off even when asked for', async () => {
    const server = await startServer({
      env: {
        HOST: '0.0.0.0',
        PAYMENT_SANDBOX: 'true',
        PAYMENT_WEBHOOK_SECRET: 'real-gateway-secret-for-tests',
        DEVICE_COOKIE_SECRET: 'device-key-for-tests',
      },
    });
    try {
      expect(
        (await new Client(server.url).get('/api/payments/sandbox?amount=1000&username=x&reference=REF-1-AAAA')).status,
      ).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

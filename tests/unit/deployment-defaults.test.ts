/**
 * Safe deployment defaults, as the configuration reads them: a key whose local default is public is never
 * used where others can reach the server (the function refuses to start on Supabase, the local server beyond
 * loopback), and X-Forwarded-For is believed only from a proxy that shows PROXY_SECRET.
 */
import { describe, expect, it } from 'vitest';
import { LOCAL_DEVICE_COOKIE_SECRET, readConfig } from '../../edge-functions/_shared/config.ts';
import { exposureRefusal, exposureSettings } from '../../scripts/lib/exposure.js';

const from = (vars: Record<string, string>) => readConfig((name) => vars[name]);
const SUPABASE = {
  SUPABASE_DB_URL: 'postgresql://postgres@db.example.supabase.co:5432/postgres',
  TOTP_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
};

describe('SETTLEMENT_BATCH_SIZE', () => {
  it("is passed to the database only when set: unset, a batch is app.settle_step's own default size", () => {
    expect(from({}).config.settlementBatchSize).toBeNull();
    expect(from({ SETTLEMENT_BATCH_SIZE: '50' }).config.settlementBatchSize).toBe(50);
  });
});

describe('DEVICE_COOKIE_SECRET', () => {
  it('is required on Supabase: the function refuses to start without it, naming it', () => {
    expect(() => from(SUPABASE)).toThrow(/^DEVICE_COOKIE_SECRET is not set: on Supabase/);
    expect(() => from({ ...SUPABASE, DEVICE_COOKIE_SECRET: '' })).toThrow(/DEVICE_COOKIE_SECRET is not set/);
    expect(from({ ...SUPABASE, DEVICE_COOKIE_SECRET: 'a-long-random-value' }).config.deviceCookieSecret).toBe(
      'a-long-random-value',
    );
  });

  it('falls back to the public local key only off Supabase (the local server then stays on loopback)', () => {
    expect(from({}).config.deviceCookieSecret).toBe(LOCAL_DEVICE_COOKIE_SECRET);
  });

  it('is required by the local server beyond loopback, with PAYMENT_WEBHOOK_SECRET', () => {
    const refusal = exposureRefusal(exposureSettings('0.0.0.0', { PAYMENT_WEBHOOK_SECRET: 'gateway-key' }));
    expect(refusal).toContain('HOST=0.0.0.0 lets other machines reach the server, but DEVICE_COOKIE_SECRET is not set');
    expect(refusal).not.toContain('PAYMENT_WEBHOOK_SECRET is not set');
    const both = exposureRefusal(exposureSettings('192.168.1.20', {}));
    expect(both).toContain('PAYMENT_WEBHOOK_SECRET is not set');
    expect(both).toContain('DEVICE_COOKIE_SECRET is not set');
    expect(
      exposureRefusal(
        exposureSettings('0.0.0.0', { PAYMENT_WEBHOOK_SECRET: 'gateway-key', DEVICE_COOKIE_SECRET: 'device-key' }),
      ),
    ).toBeNull();
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]'])
      expect(exposureRefusal(exposureSettings(host, {}))).toBeNull();
  });
});

describe('TRUST_PROXY_HOPS and PROXY_SECRET', () => {
  it('reads the hops and the secret the proxy shows', () => {
    const { config, warnings } = from({ TRUST_PROXY_HOPS: '2', PROXY_SECRET: 'static-host-secret' });
    expect(config).toMatchObject({ trustProxyHops: 2, proxySecret: 'static-host-secret' });
    expect(warnings).toEqual([]);
  });

  it('says that hops without PROXY_SECRET are not used (no request could show it)', () => {
    const { config, warnings } = from({ TRUST_PROXY_HOPS: '2' });
    expect(config.proxySecret).toBeUndefined();
    expect(warnings).toEqual([
      'TRUST_PROXY_HOPS=2 is not used: without PROXY_SECRET no request can show it came through the proxy, ' +
        'so X-Forwarded-For is ignored and the connection is the client',
    ]);
    expect(from({}).warnings).toEqual([]);
  });

  it('keeps its defaults: 1 on Supabase, else 0; the older TRUST_PROXY means 1 or 0; anything else is refused', () => {
    expect(from({ ...SUPABASE, DEVICE_COOKIE_SECRET: 'k' }).config.trustProxyHops).toBe(1);
    expect(from({}).config.trustProxyHops).toBe(0);
    expect(from({ TRUST_PROXY: 'true' }).config.trustProxyHops).toBe(1);
    expect(() => from({ TRUST_PROXY_HOPS: 'two' })).toThrow('TRUST_PROXY_HOPS must be a whole number ≥ 0, not "two"');
  });
});

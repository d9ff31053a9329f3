// What the local server refuses to do once other machines can reach it. Used by `npm start` (before anything
// starts) and by each server worker (scripts/local-server.ts), so neither can be started unsafely.

/** Whether `host` (HOST) is an address only this machine can reach. */
export function isLoopback(host) {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Why the server must not listen on `host` as configured, or null when it may. Beyond loopback the keys whose
 * local defaults are public (they are in the repository) must be the deployment's own:
 * - PAYMENT_WEBHOOK_SECRET: otherwise the only webhook key this code knows is the sandbox gateway's, so anyone
 *   could mark their own deposits paid;
 * - DEVICE_COOKIE_SECRET: otherwise anyone could sign a device cookie, the browser mark that spares a player's
 *   own sign-ins from the throttling others cause.
 * @param {{ host: string, webhookSecret: string | undefined, deviceCookieSecret: string | undefined }} settings
 * @returns {string | null}
 */
export function exposureRefusal({ host, webhookSecret, deviceCookieSecret }) {
  if (isLoopback(host)) return null;
  const refusals = [];
  if (!webhookSecret)
    refusals.push(
      `HOST=${host} lets other machines reach the server, but PAYMENT_WEBHOOK_SECRET is not set: set PAYMENT_WEBHOOK_SECRET ` +
        `to your payment gateway's webhook signing key (and PAYMENT_GATEWAY_URL to its payment page), or listen on 127.0.0.1. ` +
        `The sandbox payment gateway runs only on loopback.`,
    );
  if (!deviceCookieSecret)
    refusals.push(
      `HOST=${host} lets other machines reach the server, but DEVICE_COOKIE_SECRET is not set: set DEVICE_COOKIE_SECRET ` +
        `to a long random value (e.g. \`openssl rand -base64 32\`), or listen on 127.0.0.1. The local default key is public.`,
    );
  return refusals.length === 0 ? null : refusals.join('\n');
}

/** The settings exposureRefusal reads, from an environment (`process.env`, or Deno's as an object). */
export function exposureSettings(host, env) {
  return {
    host,
    webhookSecret: env.PAYMENT_WEBHOOK_SECRET || undefined,
    deviceCookieSecret: env.DEVICE_COOKIE_SECRET || undefined,
  };
}

// What the local server refuses to do once other machines can reach it. Used by `npm start` (before anything
// starts) and by each server worker (scripts/local-server.ts), so neither can be started unsafely.

/** Whether `host` (HOST) is an address only this machine can reach. */
export function isLoopback(host) {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Why the server must not listen on `host` as configured, or null when it may. Beyond loopback a real payment
 * gateway's webhook key is required: without it the only key this code knows is the sandbox gateway's, which
 * is public (it is in the repository), so anyone could mark their own deposits paid.
 * @param {{ host: string, webhookSecret: string | undefined }} settings
 * @returns {string | null}
 */
export function exposureRefusal({ host, webhookSecret }) {
  if (isLoopback(host) || webhookSecret) return null;
  return (
    `HOST=${host} lets other machines reach the server, but PAYMENT_WEBHOOK_SECRET is not set: set PAYMENT_WEBHOOK_SECRET ` +
    `to your payment gateway's webhook signing key (and PAYMENT_GATEWAY_URL to its payment page), or listen on 127.0.0.1. ` +
    `The sandbox payment gateway runs only on loopback.`
  );
}

/**
 * The payment gateway (/api/payments): the webhook is server to server, the sandbox page public; the
 * sandbox's form post checks the caller's session itself, after the sandbox check (404 when it is off).
 *
 * POST /api/payments/webhook — server to server. The signature is verified over the RAW body bytes before
 * anything is parsed: X-Signature = hex HMAC-SHA256(PAYMENT_WEBHOOK_SECRET, `${X-Timestamp}.${rawBody}`),
 * X-Timestamp within 5 minutes of now. Then app.complete_deposit credits the amount stored on OUR pending
 * transaction, once (the callback's amount must equal it: 409 otherwise). Bad signature/stale → 401,
 * unknown reference → 404, replay of an applied event → 200 with no change.
 *
 * The sandbox gateway (only with PAYMENT_SANDBOX=true and no PAYMENT_WEBHOOK_SECRET, the local default):
 * GET /api/payments/sandbox shows the amount with Pay / Fail buttons; their form POSTs to
 * /api/payments/sandbox, which — for the signed-in owner of the pending deposit only — signs the event with
 * the LOCAL sandbox secret, hands it to the same webhook handler in-process, and sends the browser back to
 * /wallet. Nobody can complete or fail someone else's deposit through it.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { LOCAL_SANDBOX_WEBHOOK_SECRET } from '@shared/config.ts';
import { HttpError, toHttpError } from '@shared/errors.ts';
import { query, queryAs, type Ctx } from '../context.ts';
import { errors, json, jsonBody, router, SESSION_REQUIRED } from '../openapi.ts';

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export const webhookSchema = z.object({
  reference: z.string({ error: 'Invalid reference' }).min(1, 'Invalid reference').max(255, 'Invalid reference'),
  amount: z.number({ error: 'Invalid amount' }).int('Invalid amount').positive('Invalid amount'),
  status: z.enum(['success', 'failed'], { error: 'Invalid status' }),
  gateway_txn_id: z.string().max(255).optional().nullable(),
});

const webhookAnswer = z.object({ reference: z.string(), status: z.enum(['pending', 'completed', 'failed']) });

const webhookRoute = createRoute({
  operationId: 'paymentWebhook',
  method: 'post',
  path: '/webhook',
  tags: ['payments'],
  summary: 'Payment gateway confirmation (signed with X-Timestamp and X-Signature over the raw body)',
  request: {
    headers: z.object({
      'x-timestamp': z.string().optional().describe('Unix seconds'),
      'x-signature': z.string().optional().describe('hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`)'),
    }),
    body: jsonBody(webhookSchema, {
      reference: 'REF-1764201600000-ASDF',
      amount: 1000,
      status: 'success',
      gateway_txn_id: 'pay_29QQoUBi66xm2f',
    }),
  },
  responses: { 200: json(webhookAnswer, 'Applied (or a replay: nothing changed)'), ...errors(400, 401, 404, 409) },
});

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

const sandboxPageRoute = createRoute({
  operationId: 'getSandboxPage',
  method: 'get',
  path: '/sandbox',
  tags: ['payments'],
  summary: 'Sandbox gateway page with Pay / Fail buttons (only when PAYMENT_SANDBOX=true)',
  request: { query: z.object({ amount: z.string(), username: z.string(), reference: z.string() }) },
  responses: { 200: html('The payment page'), 400: html('Invalid payment link'), ...errors(404) },
});

const sandboxSubmitRoute = createRoute({
  operationId: 'submitSandboxPayment',
  security: SESSION_REQUIRED,
  method: 'post',
  path: '/sandbox',
  tags: ['payments'],
  summary:
    "Sandbox Pay / Fail by the deposit's signed-in owner: sends the signed webhook in-process, then redirects to /wallet",
  request: {
    body: {
      content: {
        'application/x-www-form-urlencoded': {
          schema: z.object({ amount: z.string(), reference: z.string(), outcome: z.enum(['success', 'failed']) }),
          example: { amount: '1000', reference: 'REF-1764201600000-QWER', outcome: 'success' },
        },
      },
    },
  },
  responses: { 303: { description: 'Back to /wallet' }, 400: html('The event was refused'), ...errors(401, 404) },
});

const encoder = new TextEncoder();

export async function signWebhook(secret: string, timestamp: string, rawBody: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${rawBody}`));
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison of two hex strings. */
function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Verifies, parses and applies one webhook event. Shared by the route and the sandbox gateway. */
export async function handleWebhook(
  c: Ctx,
  rawBody: string,
  timestamp: string | undefined,
  signature: string | undefined,
): Promise<z.infer<typeof webhookAnswer>> {
  const secret = c.get('config').paymentWebhookSecret;
  if (!secret) throw new HttpError(503, 'Payment webhook is not configured');
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) throw new HttpError(401, 'Invalid signature');
  const expected = await signWebhook(secret, timestamp, rawBody);
  if (!safeEqual(expected, signature.trim().toLowerCase())) throw new HttpError(401, 'Invalid signature');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new HttpError(401, 'Stale webhook timestamp');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
  const event = webhookSchema.safeParse(parsed);
  if (!event.success) throw new HttpError(400, event.error.issues[0]?.message ?? 'Invalid event');
  const { reference, amount, status, gateway_txn_id } = event.data;
  const [[row]] = await query(c, 'service', (q) => [
    q`
    select reference_id, status from app.complete_deposit(${reference}, ${amount}, ${status}, ${gateway_txn_id ?? null})`,
  ]);
  return { reference: row.reference_id, status: row.status };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The sandbox pages allow their own inline styles and a form posting to this origin; nothing else. */
const SANDBOX_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function sandboxPage(c: Ctx, title: string, body: string, status: 200 | 400 | 404 | 409 | 401 | 503 | 504 = 200) {
  c.header('Content-Security-Policy', SANDBOX_CSP);
  // With `no-referrer` (the API default) browsers send `Origin: null` on the form post, which the CSRF
  // check refuses; `same-origin` sends our origin to ourselves and nothing to anyone else.
  c.header('Referrer-Policy', 'same-origin');
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px #0002;padding:2rem;max-width:420px;width:90%}
h1{font-size:1.25rem;margin:0 0 .25rem}.note{color:#666;font-size:.85rem}.amount{font-size:2rem;font-weight:700;margin:1rem 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#666}dd{margin:0;word-break:break-all}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{flex:1;padding:.75rem;border:0;border-radius:8px;font-size:1rem;cursor:pointer}
.pay{background:#16a34a;color:#fff}.fail{background:#dc2626;color:#fff}a{color:#2563eb}</style></head>
<body><main>${body}</main></body></html>`,
    status,
  );
}

const sandboxQuery = z.object({
  amount: z.coerce.number().int().positive(),
  username: z.string().max(255).default(''),
  reference: z.string().min(1).max(255),
});

export function paymentRoutes() {
  const app = router();

  // Registered for the OpenAPI document only: no validator may read (and re-serialize) the body before
  // the signature is checked over the raw bytes.
  app.openAPIRegistry.registerPath(webhookRoute);
  app.post('/webhook', async (c) => {
    const rawBody = await c.req.text();
    const answer = await handleWebhook(c, rawBody, c.req.header('x-timestamp'), c.req.header('x-signature'));
    return c.json(answer, 200);
  });

  // Sandbox gateway: an HTML page and its form post (404 unless PAYMENT_SANDBOX=true).
  app.openAPIRegistry.registerPath(sandboxPageRoute);
  app.openAPIRegistry.registerPath(sandboxSubmitRoute);
  app.get('/sandbox', (c) => {
    if (!c.get('config').paymentSandbox) throw new HttpError(404, 'Not found');
    const query = sandboxQuery.safeParse(c.req.query());
    if (!query.success)
      return sandboxPage(c, 'Payment', '<h1>Invalid payment link</h1><p><a href="/wallet">Back to wallet</a></p>', 400);
    const { amount, username, reference } = query.data;
    const rupees = new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      maximumFractionDigits: 0,
    }).format(amount);
    return sandboxPage(
      c,
      'Sandbox payment',
      `
<h1>UPI payment</h1><p class="note">Sandbox gateway for local use: no real money moves.</p>
<div class="amount">${escapeHtml(rupees)}</div>
<dl><dt>Paying as</dt><dd>${escapeHtml(username || '-')}</dd><dt>Reference</dt><dd>${escapeHtml(reference)}</dd></dl>
<form method="post" action="/api/payments/sandbox">
<input type="hidden" name="amount" value="${amount}"><input type="hidden" name="reference" value="${escapeHtml(reference)}">
<div class="actions"><button class="pay" name="outcome" value="success" type="submit">Pay</button>
<button class="fail" name="outcome" value="failed" type="submit">Fail</button></div></form>`,
    );
  });

  app.post('/sandbox', async (c) => {
    const config = c.get('config');
    if (!config.paymentSandbox) throw new HttpError(404, 'Not found');
    const form = await c.req.parseBody();
    const reference = typeof form.reference === 'string' ? form.reference : '';
    const outcome = form.outcome === 'success' ? 'success' : 'failed';
    // Only the signed-in owner may pay or fail their deposit (RLS shows an admin every row: compare owners).
    const [[deposit]] = await queryAs(c, 'user', 'reader', (q) => [
      q`
      select amount from public.transactions
      where type = 'deposit' and reference_id = ${reference} and user_id = (select app.current_user_id())`,
    ]);
    if (!deposit) throw new HttpError(404, 'Deposit not found');
    const rawBody = JSON.stringify({
      reference,
      amount: deposit.amount,
      status: outcome,
      gateway_txn_id: `SANDBOX-${crypto.randomUUID()}`,
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    // Never the configured secret: the sandbox can only produce events a sandbox-keyed webhook accepts.
    const signature = await signWebhook(LOCAL_SANDBOX_WEBHOOK_SECRET, timestamp, rawBody);
    try {
      await handleWebhook(c, rawBody, timestamp, signature);
    } catch (error) {
      const known = toHttpError(error);
      if (!known) throw error;
      // as every other refusal: a 503 (the database away) or a 504 (its answer lost) says when to try again
      if (known.retryAfter !== undefined) c.header('Retry-After', String(known.retryAfter));
      const heading = known.status === 504 ? 'Payment not confirmed' : 'Payment could not be applied';
      return sandboxPage(
        c,
        known.status === 504 ? heading : 'Payment failed',
        `<h1>${heading}</h1><p>${escapeHtml(known.message)}</p><p><a href="/wallet">Back to wallet</a></p>`,
        known.status as 400,
      );
    }
    return c.redirect('/wallet', 303);
  });

  return app;
}

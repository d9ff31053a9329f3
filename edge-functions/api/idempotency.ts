/**
 * `Idempotency-Key` for POST /api/bets and POST /api/wallet/withdraw (brandur/rocket-rides-atomic):
 * lookup → business function → save, all in the request's one transaction. app.idempotency_lookup takes an
 * advisory lock on (user, key), so two concurrent requests with one key run one after the other and the
 * second replays the first's answer. The same key with another body (or on the other route) is a 409.
 * A refused request (4xx) saves nothing: its transaction rolls back, and a retry is evaluated afresh.
 */
import type { RequestTx } from './context.ts';
import { sha256Hex } from './session.ts';

export interface IdempotentResult<T> {
  status: number;
  body: T;
  replayed: boolean;
}

export async function idempotent<T>(
  db: RequestTx,
  key: string | undefined,
  scope: string,
  request: unknown,
  status: number,
  work: () => Promise<T>,
): Promise<IdempotentResult<T>> {
  if (!key) return { status, body: await work(), replayed: false };
  // The validated request (schema key order, unknown keys stripped) identifies "the same body".
  const requestHash = await sha256Hex(`${scope}\n${JSON.stringify(request)}`);
  await db.asService();
  const [saved] = await db.tx<{ response_status: number; response_body: T }[]>`
    select response_status, response_body from app.idempotency_lookup(${key}, ${requestHash})`;
  if (saved) return { status: saved.response_status, body: saved.response_body, replayed: true };
  const body = await work();
  await db.asService();
  await db.tx`select app.idempotency_save(${key}, ${requestHash}, ${status}, ${db.tx.json(body as Parameters<typeof db.tx.json>[0])})`;
  return { status, body, replayed: false };
}

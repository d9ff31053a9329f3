/**
 * `Idempotency-Key` for POST /api/bets and POST /api/wallet/withdraw (brandur/rocket-rides-atomic), in the
 * request's one round trip: app.idempotency_begin takes an advisory lock on (user, key) — so two concurrent
 * requests with one key run one after the other — then the business function runs and its answer is saved
 * with the key in the same statement. For a key already answered, app.idempotency_begin raises
 * BT<saved status> carrying the saved answer: the transaction ends there (nothing moves) and the answer is
 * replayed with `Idempotent-Replayed: true`. The same key with another body (or on the other route) is a
 * 409. A refused request (4xx) saves nothing: its transaction rolls back, and a retry is evaluated afresh.
 */
import type { Sql, Statement } from '../_shared/db.ts';
import { sha256Hex } from '../_shared/sha256.ts';
import { answer, bodyOf, query, sendJson, type Ctx, type DatabaseAnswer } from './context.ts';

const REPLAY = /^BT(2\d\d)$/;

/**
 * Answers a player's write (`work` returns `body`, the JSON of the new row) with status 201, idempotently
 * when the request carries an Idempotency-Key.
 */
export async function idempotentWrite(
  c: Ctx,
  key: string | undefined,
  scope: string,
  request: unknown,
  work: (q: Sql) => Statement,
): Promise<DatabaseAnswer> {
  if (!key) return answer(c, 'user', 'service', work, { status: 201 });
  // The validated request (schema key order, unknown keys stripped) identifies "the same body".
  const requestHash = sha256Hex(`${scope}\n${JSON.stringify(request)}`);
  try {
    const [, saved] = await query(c, 'user', 'service', (q) => [
      q`select app.idempotency_begin(${key}, ${requestHash})`,
      q`with answer as (${work(q)})
        select answer.body, app.idempotency_save(${key}, ${requestHash}, 201, answer.body::jsonb) from answer`,
    ]);
    return sendJson(c, bodyOf(saved), 201);
  } catch (error) {
    const replay = REPLAY.exec((error as { code?: string }).code ?? '');
    if (!replay) throw error;
    c.header('Idempotent-Replayed', 'true');
    return sendJson(c, (error as { detail: string }).detail, Number(replay[1]) as 201);
  }
}

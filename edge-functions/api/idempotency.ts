/**
 * Money writes, and their `Idempotency-Key` (brandur/rocket-rides-atomic). Every route that moves money or
 * decides where it goes — a bet, a deposit request, a withdrawal, an admin's wallet adjustment, approving or
 * rejecting a pending transaction, declaring a winner or abandoning a match — runs through `moneyWrite`, so a
 * client that could not learn the outcome of one (a 504, a connection lost) can send it again with the same
 * key and learn it, without the money moving twice.
 *
 * In the request's one round trip: app.idempotency_begin takes an advisory lock on (user, key) — so two
 * concurrent requests with one key run one after the other, and a retry waits for the original if it is
 * still committing — then the business function runs and its answer is saved with the key in the same
 * statement. For a key already answered, app.idempotency_begin raises BT<saved status> carrying the saved
 * answer: the transaction ends there (nothing moves) and the answer is replayed with
 * `Idempotent-Replayed: true`. The same key with another body (or on another route or target) is a 409. A
 * refused request (4xx) saves nothing: its transaction rolls back, and a retry is evaluated afresh.
 */
import type { Rows, Sql, Statement } from '@shared/db.ts';
import { sha256Hex } from '@shared/sha256.ts';
import type { RouteConfig } from '@hono/zod-openapi';
import { bodyOf, query, sendJson, type Answer, type AnswerStatus, type Ctx, type SuccessStatus } from './context.ts';

const REPLAY = /^BT(2\d\d)$/;

export interface MoneyWrite {
  /** The operation and its target, as the key's scope: `PATCH /api/admin/transactions/17/approve`. */
  scope: string;
  /** The validated body (schema key order, unknown keys stripped): what "the same request" means. */
  request: unknown;
  /**
   * The status of the answer; 'answered' when the statement says it (a `status` column: 202 when a second
   * administrator must approve before the money moves).
   */
  status: 200 | 201 | 'answered';
}

/**
 * Runs a money write as the caller (`work` returns `body`, the JSON of the answer; on an admin route the
 * caller must be an active admin) and returns its answer: the first one's, replayed, for a repeated
 * Idempotency-Key.
 */
export async function moneyWrite(
  c: Ctx,
  { scope, request, status }: MoneyWrite,
  work: (q: Sql) => Statement,
): Promise<{ body: string; status: SuccessStatus }> {
  const key = c.req.header('idempotency-key');
  const answered = (rows: Rows): SuccessStatus => (status === 'answered' ? (rows[0].status as SuccessStatus) : status);
  if (!key) {
    const [rows] = await query(c, 'service', (q) => [work(q)]);
    return { body: bodyOf(rows), status: answered(rows) };
  }
  const requestHash = sha256Hex(`${scope}\n${JSON.stringify(request)}`);
  try {
    const [, saved] = await query(c, 'service', (q) => [
      q`select app.idempotency_begin(${key}, ${requestHash})`,
      status === 'answered'
        ? q`with answer as (${work(q)})
            select answer.body, answer.status,
                   app.idempotency_save(${key}, ${requestHash}, answer.status, answer.body::jsonb)
            from answer`
        : q`with answer as (${work(q)})
            select answer.body, app.idempotency_save(${key}, ${requestHash}, ${status}, answer.body::jsonb) from answer`,
    ]);
    return { body: bodyOf(saved), status: answered(saved) };
  } catch (error) {
    const replay = REPLAY.exec((error as { code?: string }).code ?? '');
    if (!replay) throw error;
    c.header('Idempotent-Replayed', 'true');
    return { body: (error as { detail: string }).detail, status: Number(replay[1]) as SuccessStatus };
  }
}

/** Answers a money write whose answer is the body `work` builds (moneyWrite), as route R's answer. */
export async function answerMoneyWrite<R extends RouteConfig>(
  c: Ctx,
  write: MoneyWrite & { status: AnswerStatus<R> | 'answered' },
  work: (q: Sql) => Statement,
): Promise<Answer<R>> {
  const { body, status } = await moneyWrite(c, write, work);
  return sendJson<R>(c, body, status as AnswerStatus<R>);
}

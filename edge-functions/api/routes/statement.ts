/**
 * GET /api/wallet/statement.csv?from=YYYY-MM-DD&to=YYYY-MM-DD[&userId=]: the ledger between
 * two IST calendar days as CSV — date (IST), type, amount, status, reference and the running balance of
 * completed rows. A player gets their own; an admin any player's (`userId`).
 *
 * The lines come from app.statement in chunks of CHUNK_ROWS, each one short transaction and one round trip
 * (a month's statement is usually one): the first chunk is read before answering, so a refusal is a plain
 * JSON error; the next ones are read as the client takes the download in, each continuing after the last
 * id with the last balance. So a statement of any length holds one chunk in memory and no connection
 * while the client is slow.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { statementRangeSchema } from '../../../src/domain/protection-schemas.ts';
import type { Rows } from '../../_shared/db.ts';
import { query } from '../context.ts';
import { errors, router, signedInOnly } from '../openapi.ts';
import { transactionsQuery } from './wallet.ts';

/** The columns of app.statement's lines. */
export const STATEMENT_HEADER = 'date (IST),type,amount,status,reference,balance after';
const CHUNK_ROWS = 1000;
const LINE_END = '\r\n';

const statementQuery = statementRangeSchema.safeExtend({
  userId: transactionsQuery.shape.userId.describe(
    "Admins only: another player's statement (a player may pass only their own id).",
  ),
});

const statementRoute = createRoute({
  operationId: 'downloadStatement',
  ...signedInOnly,
  method: 'get',
  path: '/wallet/statement.csv',
  tags: ['wallet'],
  summary: 'The ledger between two dates (IST, both included) as CSV with the running balance',
  request: { query: statementQuery },
  responses: {
    200: { description: 'CSV (RFC 4180, CRLF), a header line first', content: { 'text/csv': { schema: z.string() } } },
    ...errors(400, 401, 403, 404),
  },
});

export function statementRoutes() {
  const app = router();

  app.openapi(statementRoute, async (c) => {
    const { from, to, userId } = c.req.valid('query');
    const chunk = async (after: { id: number; balance_after: number } | null): Promise<Rows> => {
      const [rows] = await query(c, 'user', 'service', (q) => [
        q`
        select s.id, s.balance_after, s.line
        from app.statement(${userId ?? null}, ${from}, ${to}, ${after?.id ?? null}, ${after?.balance_after ?? null}, ${CHUNK_ROWS}) s`,
      ]);
      return rows;
    };
    let rows = await chunk(null);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(STATEMENT_HEADER + LINE_END));
      },
      async pull(controller) {
        if (rows.length > 0) controller.enqueue(encoder.encode(rows.map((row) => row.line + LINE_END).join('')));
        if (rows.length < CHUNK_ROWS) {
          controller.close();
          return;
        }
        try {
          rows = await chunk(rows.at(-1) as { id: number; balance_after: number });
        } catch (error) {
          // the answer has begun: all that is left is to cut the download short, so the file is visibly incomplete
          console.error(JSON.stringify({ level: 'error', route: c.req.routePath, error: String(error) }));
          controller.error(error);
        }
      },
    });
    return c.body(body, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="statement-${from}-to-${to}.csv"`,
    });
  });

  return app;
}

/**
 * Spec §7.2: GET /api/bets (the caller's bets), POST /api/bets.
 *
 * Odds and potential_win from the client are only compared: app.place_bet computes 3.00 and amount × 3 and
 * refuses values that disagree (409 'Odds have changed'). Optional Idempotency-Key (idempotency.ts).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { betEntity, type Bet } from '../../../src/domain/entities.ts';
import { betSchema } from '../../../src/domain/schemas.ts';
import { requireUser, withCaller } from '../context.ts';
import { idempotent } from '../idempotency.ts';
import { errors, signedIn, idempotencyHeaders, json, jsonBody, router } from '../openapi.ts';
import { listBets } from '../queries.ts';

const listRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'get', path: '/bets', tags: ['bets'], summary: 'The caller\'s bets, newest first',
  responses: { 200: json(z.array(betEntity), 'Bets with match (team1, team2) and team'), ...errors(401) },
});

const placeRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'post', path: '/bets', tags: ['bets'], summary: 'Place a bet at 3.0x',
  request: { headers: idempotencyHeaders, body: jsonBody(betSchema) },
  responses: {
    201: json(betEntity, 'The bet (or, for a repeated Idempotency-Key, the first answer)'),
    ...errors(400, 401, 403, 404, 409),
  },
});

export function betRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const caller = requireUser(c);
    return c.json(await withCaller(c, (db) => listBets(db.tx, { userId: caller.userId })), 200);
  });

  app.openapi(placeRoute, async (c) => {
    requireUser(c);
    const input = c.req.valid('json');
    const key = c.req.valid('header')['idempotency-key'];
    const result = await withCaller(c, (db) =>
      idempotent(db, key, 'POST /api/bets', input, 201, async () => {
        await db.asService();
        const [{ id }] = await db.tx<{ id: number }[]>`
          select r.id from app.place_bet(${input.match_id}, ${input.team_id}, ${input.amount},
                                ${input.odds ?? null}, ${input.potential_win ?? null}) r`;
        await db.asReader();
        const [bet] = await listBets(db.tx, { betId: id });
        return bet as Bet;
      }));
    if (result.replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(result.body, 201);
  });

  return app;
}

/**
 * The request log names the caller of every signed-in request, those the database refused or answered from
 * a saved answer (an Idempotency-Key replay) included: their session was resolved all the same.
 */
import { describe, expect, it } from 'vitest';
import { apiSuite, createMatch, fund, registerPlayer } from '../support/api.ts';

describe('request log', () => {
  const api = apiSuite({ admin: true, server: { keepLogs: true } });

  /** The log lines of `route` requests answered with `status`, waiting briefly for the server's output. */
  async function logged(method: string, route: string, status: number, count: number) {
    const lines = () =>
      api.server.logs!.filter((line) => line.method === method && line.route === route && line.status === status);
    for (let waited = 0; lines().length < count && waited < 2000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return lines();
  }

  it('logs an Idempotency-Key replay and a refused bet with the caller, like any request', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const match = await createMatch(api.admin, { live: true });
    const bet = { match_id: match.id, team_id: match.team1_id, amount: 1000 };
    const first = await player.client.post('/api/bets', bet, { 'idempotency-key': 'log-replay-1' });
    const replay = await player.client.post('/api/bets', bet, { 'idempotency-key': 'log-replay-1' });
    expect([first.status, replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    const refused = await player.client.post('/api/bets', { ...bet, amount: 10_000 }); // more than the wallet holds
    expect(refused.status).toBe(409);

    const bets = await logged('POST', '/api/bets', 201, 2);
    expect(bets.map((line) => line.user_id)).toEqual([player.id, player.id]);
    expect((await logged('POST', '/api/bets', 409, 1)).map((line) => line.user_id)).toEqual([player.id]);
  });
});

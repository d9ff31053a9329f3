/**
 * The stack's floor for `npm run bench`: Deno + Hono + postgres.js answering `GET /api/matches?status=` with
 * ONE query and nothing else — no session, no transaction, no role switch, no validation, no middleware.
 * The query builds the same answer as the API's (app.match_json), so the ratio "API ÷ floor" measures what
 * the API adds on top of the stack, on the same machine in the same run.
 *
 * Env: DATABASE_URL, PORT, DATABASE_POOL_MAX (default 10).
 */
import { Hono } from 'hono';
import postgres from 'postgres';

const sql = postgres(Deno.env.get('DATABASE_URL')!, {
  max: Number(Deno.env.get('DATABASE_POOL_MAX') ?? 10),
  onnotice: () => {},
});
const app = new Hono().get('/api/matches', async (c) => {
  const [row] = await sql`
    select coalesce(json_agg(app.match_json(m) order by m.start_time, m.id), '[]')::text as body
    from public.matches m where m.status = ${c.req.query('status') ?? 'live'}`;
  return c.body(row.body, 200, { 'content-type': 'application/json; charset=UTF-8' });
});

Deno.serve(
  {
    port: Number(Deno.env.get('PORT') ?? 0),
    hostname: '127.0.0.1',
    reusePort: true, // API_WORKERS > 1: several processes on one port, as the real server's workers
    onListen: (address) => console.log(JSON.stringify({ level: 'info', msg: 'listening', port: address.port })),
  },
  app.fetch,
);

// Exit when the parent closes our stdin (see scripts/lib/deno.js).
(async () => {
  const reader = Deno.stdin.readable.getReader();
  while (!(await reader.read()).done) {
    /* drain */
  }
  Deno.exit(0);
})();

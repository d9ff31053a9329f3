/**
 * Run under Deno by tests/api/memory-retention.test.ts (with --expose-gc): sends ROUNDS requests' worth of
 * statements through the request path's transaction on a renewable pool, as the API does, then collects
 * garbage and prints how many of the connections reserved for them are still reachable from somewhere.
 */
import { connect, transaction } from '../../edge-functions/_shared/db.ts';
import { renewablePool } from '../../edge-functions/_shared/renewable-pool.ts';

const ROUNDS = 300;
const sql = renewablePool(() => connect(Deno.env.get('DATABASE_URL'), 2));
const reserved: WeakRef<object>[] = [];
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let round = 0; round < ROUNDS / 4; round++) {
      await transaction(sql, (q) => {
        reserved.push(new WeakRef(q));
        return [q`select 1`];
      });
    }
  }),
);
const collect = (globalThis as unknown as { gc: () => void }).gc; // --v8-flags=--expose-gc
for (let pass = 0; pass < 3; pass++) {
  await new Promise((resolve) => setTimeout(resolve, 10));
  collect();
}
console.log(
  JSON.stringify({ rounds: reserved.length, reachable: reserved.filter((ref) => ref.deref() !== undefined).length }),
);
await sql.end();

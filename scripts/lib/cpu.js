// CPU time spent by the processes `npm run bench` measures, read from /proc (Linux): the server's workers,
// and the PostgreSQL backends serving one database — not the whole server's, which other work may share.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** User + system CPU seconds a process has used so far (0 once it has ended). */
function cpuSeconds(pid) {
  try {
    // the fields after the command name (which may hold spaces, in parentheses): utime and stime are 12th and 13th
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

async function backends(sql) {
  const rows =
    await sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  return rows.map((row) => row.pid);
}

/**
 * Starts counting the CPU seconds of `pids` (the server's workers) and of the PostgreSQL backends of `sql`'s
 * database; `stop()` resolves with both since the start. A backend that connected meanwhile counts whole;
 * one that ended meanwhile is lost (the server's pool keeps its connections through a load).
 */
export async function cpuMeter(sql, pids) {
  const start = new Map([...pids, ...(await backends(sql))].map((pid) => [pid, cpuSeconds(pid)]));
  return {
    async stop() {
      const used = (pid) => cpuSeconds(pid) - (start.get(pid) ?? 0);
      const server = pids.reduce((sum, pid) => sum + used(pid), 0);
      const database = (await backends(sql)).reduce((sum, pid) => sum + used(pid), 0);
      return { server, database };
    },
  };
}

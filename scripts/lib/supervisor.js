// Keeps a process of the local runtime running (embedded PostgreSQL, each server worker): when it exits
// without being asked to, it is started again after a growing pause, and we say why. A process that keeps
// failing is given up on: `onGiveUp` then stops everything and `npm start` exits non-zero.
import { setTimeout as sleep } from 'node:timers/promises';

/** Pauses before the 1st, 2nd, … restart in a row; one failure more than there are pauses gives up. */
export const RESTART_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000];
/** A process that ran this long before exiting was healthy: its restart counts as the first again. */
const STABLE_MS = 30_000;

/**
 * A running process as `start` hands it over: the child, and its last words (the last lines of its log, for
 * saying why it exited; empty when its output goes straight to ours).
 * @typedef {{ child: import('node:child_process').ChildProcess, lastWords: () => string }} Running
 */

/** Resolves with how the child ended (at once if it already has). */
export function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

const describe = ({ code, signal }) => (signal ? `killed by ${signal}` : `exit code ${code}`);

/**
 * Supervises what `start()` starts (it resolves once the process is ready, or rejects). The first start is
 * the caller's: `supervise` resolves after it and rejects if it fails. `beforeRestart()` may clean up
 * after a crash (e.g. wait for a dead server's leftovers). `stop(signal, graceMs)` asks the process to
 * stop and waits, then kills it if it is still there after `graceMs`.
 *
 * @param {{ name: string, start: () => Promise<Running>, beforeRestart?: () => Promise<void>,
 *           log: (message: string) => void, onGiveUp: (reason: string) => void }} options
 */
export async function supervise({ name, start, beforeRestart = async () => {}, log, onGiveUp }) {
  let running = await start();
  let startedAt = Date.now();
  let stopping = false;
  const stopped = new AbortController(); // cuts a restart pause short

  const restartLoop = async () => {
    for (let failures = 0; ;) {
      const ending = await exited(running.child);
      if (stopping) return;
      failures = Date.now() - startedAt >= STABLE_MS ? 1 : failures + 1;
      let why = `${describe(ending)}${running.lastWords() ? `: ${running.lastWords()}` : ''}`;
      for (;;) {
        if (failures > RESTART_DELAYS_MS.length) {
          onGiveUp(`${name} failed ${failures} times in a row (last: ${why}); giving up`);
          return;
        }
        const delay = RESTART_DELAYS_MS[failures - 1];
        log(
          `${name} stopped unexpectedly (${why}); restarting in ${delay / 1000} s (attempt ${failures} of ${RESTART_DELAYS_MS.length})`,
        );
        await sleep(delay, undefined, { signal: stopped.signal }).catch(() => {});
        if (stopping) return;
        try {
          await beforeRestart();
          running = await start();
          startedAt = Date.now();
          break;
        } catch (error) {
          failures += 1;
          why = `did not start: ${error.message}`;
        }
      }
      if (stopping) {
        await stopChild(running.child, 'SIGTERM', 10_000);
        return;
      }
      log(`${name} is running again (pid ${running.child.pid})`);
    }
  };
  const loop = restartLoop();

  return {
    get pid() {
      return running.child.pid;
    },
    /** Stops the process for good (no restart), `signal` first, SIGKILL after `graceMs`. */
    async stop(signal, graceMs) {
      stopping = true;
      stopped.abort();
      await stopChild(running.child, signal, graceMs);
      await loop;
    },
  };
}

/** Signals a child and waits for it to exit; SIGKILL when it is still there after `graceMs`. */
export async function stopChild(child, signal, graceMs) {
  const ending = exited(child);
  if (child.exitCode !== null || child.signalCode !== null) return ending;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await ending;
  } finally {
    clearTimeout(timer);
  }
}

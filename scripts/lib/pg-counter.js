/**
 * A TCP proxy in front of PostgreSQL that counts what a client costs the database: statements (each
 * Query or Execute message of the wire protocol) and round trips (how many times the client had to wait
 * for an answer before it could send more).
 *
 * Round trips are counted by holding the server's answers until the client has been quiet for
 * `quietMs`: a client that pipelines sends everything inside that window, so its answers are released
 * once and it sends nothing more; a client that waits for an answer before its next statement sends
 * again only after a release, which starts a new round trip. The proxy delays answers but never changes
 * them, so the client under test behaves exactly as it does without it.
 */
import { createServer, connect } from 'node:net';

/** @typedef {{ statements: number, roundTrips: number }} Counts */
/**
 * @typedef {object} PgCounter
 * @property {string} url A database URL that goes through the proxy (same user, password and database).
 * @property {() => Counts} counts Counts since the last reset, over every connection.
 * @property {() => void} reset
 * @property {() => Promise<void>} close
 */

const SSL_REQUEST = 80877103;

/** @returns {Promise<PgCounter>} */
export async function startPgCounter(targetUrl, { quietMs = 40 } = {}) {
  const target = new URL(targetUrl);
  /** @type {Counts} */
  let counts = { statements: 0, roundTrips: 0 };
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();

  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let startup = true;
    let pending = Buffer.alloc(0);
    /** @type {Buffer[]} */
    let held = [];
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let quiet;
    // A client message that follows a release of answers opens a new round trip.
    let released = true;

    const release = () => {
      quiet = undefined;
      if (held.length > 0) client.write(Buffer.concat(held));
      held = [];
      released = true;
    };

    client.on('data', (chunk) => {
      upstream.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          // after an SSLRequest the real startup message follows; after the startup message, typed messages
          startup = pending.readInt32BE(4) === SSL_REQUEST;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) break;
        const type = String.fromCharCode(pending[0]);
        if (type === 'Q' || type === 'E') counts.statements += 1;
        if (released) counts.roundTrips += 1;
        released = false;
        pending = pending.subarray(length);
      }
      if (quiet) clearTimeout(quiet);
      quiet = setTimeout(release, quietMs);
    });
    upstream.on('data', (chunk) => {
      held.push(chunk);
      if (!quiet) quiet = setTimeout(release, quietMs);
    });
    const end = () => {
      if (quiet) clearTimeout(quiet);
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const proxied = new URL(targetUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
  return {
    url: proxied.toString(),
    counts: () => ({ ...counts }),
    reset: () => {
      counts = { statements: 0, roundTrips: 0 };
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve(undefined));
      }),
  };
}

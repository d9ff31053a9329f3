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
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface Counts {
  statements: number;
  roundTrips: number;
}

export interface PgCounter {
  /** A database URL that goes through the proxy (same user, password and database as the target). */
  url: string;
  /** Counts since the last reset, over every connection. */
  counts(): Counts;
  reset(): void;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;

export async function startPgCounter(targetUrl: string, { quietMs = 40 } = {}): Promise<PgCounter> {
  const target = new URL(targetUrl);
  let counts: Counts = { statements: 0, roundTrips: 0 };
  const sockets = new Set<Socket>();

  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let startup = true;
    let pending = Buffer.alloc(0);
    let held: Buffer[] = [];
    let quiet: ReturnType<typeof setTimeout> | undefined;
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

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(targetUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    counts: () => ({ ...counts }),
    reset: () => {
      counts = { statements: 0, roundTrips: 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

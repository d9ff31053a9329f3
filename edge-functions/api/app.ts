/**
 * The `api` edge function: every /api route of the product. `index.ts` serves it on Supabase;
 * `scripts/local-server.ts` serves it beside the built SPA for `npm start`.
 *
 * Order of the middleware: request log → security headers → `Cache-Control: private, no-store` unless a
 * public match read → 501 for a method HTTP does not have → 64 KiB body limit → same-origin writes → the database and configuration → the session
 * cookie → routes. Each route's database work, session
 * included, is one round trip (context.ts). Admin routes sit behind one guard (401 without a session); the
 * database answers 403 for anyone but an active admin (app.authenticate) and each admin function checks again.
 */
import type { MiddlewareHandler } from 'hono';
import { listenConnection, sql as defaultSql, type Sql } from '@shared/db.ts';
import { env as defaultEnv, type Env as Config } from '@shared/env.ts';
import { PlayerResults } from './player-results.ts';
import { PublicMatchReads } from './public-reads.ts';
import { SessionStreams } from './session-streams.ts';
import type { AppEnv } from './context.ts';
import {
  handleError,
  limitBody,
  privateByDefault,
  requestLog,
  sameOriginWrites,
  securityHeaders,
} from './middleware.ts';
import { apiDocument, documentRoute, knownMethodsOnly, notRouted } from './document.ts';
import { restrictTo, router } from './openapi.ts';
import { adminBetRoutes } from './routes/admin/bets.ts';
import { adminBooksRoutes } from './routes/admin/books.ts';
import { adminCorrectionRoutes } from './routes/admin/corrections.ts';
import { adminDashboardRoutes } from './routes/admin/dashboard.ts';
import { adminMatchRoutes } from './routes/admin/matches.ts';
import { adminSettingsRoutes } from './routes/admin/settings.ts';
import { adminTeamRoutes } from './routes/admin/teams.ts';
import { adminTransactionRoutes } from './routes/admin/transactions.ts';
import { adminUserRoutes } from './routes/admin/users.ts';
import { accountRoutes } from './routes/account.ts';
import { accountSecurityRoutes } from './routes/account-security.ts';
import { authRoutes } from './routes/auth.ts';
import { bankAccountRoutes } from './routes/bank-accounts.ts';
import { betRoutes } from './routes/bets.ts';
import { MatchFeed } from '@shared/match-feed.ts';
import { SettlementWorker } from '@shared/settlement-worker.ts';
import { healthRoutes } from './routes/health.ts';
import { liveRoutes } from './routes/live.ts';
import { matchRoutes } from './routes/matches.ts';
import { paymentRoutes } from './routes/payments.ts';
import { userRoutes } from './routes/user.ts';
import { walletRoutes } from './routes/wallet.ts';
import { readSession } from './session.ts';

const DOCUMENT_DESCRIPTION =
  'Every /api route. Errors are {"message": string}. Sessions: the HttpOnly `session` cookie set by ' +
  '/api/login and /api/register. Writes from a foreign Origin are refused (403). Every answer says ' +
  '`Cache-Control: private, no-store` except the public match reads (GET /api/matches, ' +
  'GET /api/matches/{id}), which are the same for everyone and say `Cache-Control: public` with a ' +
  'lifetime of a few seconds. A method a path does not have is answered 405 with `Allow`; a method this ' +
  'server does not know at all, 501.';

export function createApp(sql: Sql = defaultSql, config: Config = defaultEnv) {
  const app = router().basePath('/api');
  const provide: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('sql', sql);
    c.set('config', config);
    await next();
  };
  app.use(
    requestLog,
    securityHeaders,
    privateByDefault,
    knownMethodsOnly,
    limitBody,
    sameOriginWrites,
    provide,
    readSession,
  );

  // One LISTEN connection per app (process), however many clients stream or read; never through a
  // transaction pooler (config.databaseListenUrl).
  const feed = new MatchFeed(sql, (on) => listenConnection(config.databaseListenUrl, on));
  // Settles the bets of completed matches when a run starts and whenever the feed's LISTEN is (again) in
  // place (the database back: a run may have been cut off), and on a timer where this process lives long
  // enough (the local runtime; on Supabase pg_cron sweeps).
  const settlement = new SettlementWorker(sql, config.settlementBatchSize);
  feed.onSettlement(() => void settlement.kick());
  if (config.settlementSweepSeconds) settlement.sweepEvery(config.settlementSweepSeconds);
  // One router per resource, mounted at its prefix; each states who it admits (openapi.ts `router`).
  app.route('/health', healthRoutes(sql, feed));
  app.route('/', authRoutes()); // the session resource: /login, /register, /logout, /logout-all
  app.route('/user', userRoutes());
  app.route('/matches', matchRoutes(new PublicMatchReads(feed)));
  app.route('/live', liveRoutes(feed, new PlayerResults(sql, feed), new SessionStreams(sql, feed)));
  app.route('/bets', betRoutes());
  app.route('/wallet', walletRoutes());
  app.route('/bank-accounts', bankAccountRoutes());
  app.route('/payments', paymentRoutes());
  app.route('/account', accountRoutes());
  app.route('/account', accountSecurityRoutes());

  // Every /api/admin route, behind one guard.
  const admin = router();
  admin.use('*', async (c, next) => {
    restrictTo(c, 'admin');
    await next();
    // An admin write may have changed a match: this process's public match reads go to the database again.
    if (c.req.method !== 'GET' && c.res.ok) feed.changedHere();
  });
  admin.route('/matches', adminMatchRoutes(settlement));
  admin.route('/corrections', adminCorrectionRoutes(settlement));
  admin.route('/teams', adminTeamRoutes());
  admin.route('/bets', adminBetRoutes());
  admin.route('/users', adminUserRoutes());
  admin.route('/transactions', adminTransactionRoutes());
  admin.route('/settings', adminSettingsRoutes());
  admin.route('/', adminDashboardRoutes()); // dashboard/stats and audit-log share no prefix
  admin.route('/', adminBooksRoutes()); // books and books.csv: books.ts says why
  app.route('/admin', admin);

  // Generated once, on first use: every route is in place by then.
  let document: ReturnType<typeof apiDocument> | undefined;
  const contract = () => (document ??= apiDocument(app, DOCUMENT_DESCRIPTION));
  app.openAPIRegistry.registerPath(documentRoute);
  app.get('/openapi.json', (c) => c.json(contract()));

  app.notFound((c) => notRouted(c, contract()));
  app.onError(handleError);
  return app;
}

/**
 * The reads behind the answers, built as JSON in SQL (`to_jsonb`) so every entity has the field names of
 * spec §3 and one timestamp format. They run as the reading role: RLS decides which rows the caller sees
 * (a player's bets and transactions are their own; admins see all).
 */
import type { TransactionSql } from '../_shared/db.ts';
import type { AuditLogEntry, BankAccount, Bet, Match, Team, Transaction, User } from '../../src/domain/entities.ts';
import type { MatchStatus } from '../../src/domain/limits.ts';

type Tx = TransactionSql;

const matchJson = (tx: Tx) => tx`
  to_jsonb(m) || jsonb_build_object(
    'team1', to_jsonb(t1), 'team2', to_jsonb(t2),
    'additionalDetails', jsonb_build_object('status', m.match_result))`;

const matchJoins = (tx: Tx) => tx`
  join public.teams t1 on t1.id = m.team1_id
  join public.teams t2 on t2.id = m.team2_id`;

export async function listMatches(
  tx: Tx, options: { status?: MatchStatus; id?: number; newestFirst?: boolean } = {},
): Promise<Match[]> {
  const rows = await tx<{ match: Match }[]>`
    select ${matchJson(tx)} as match
    from public.matches m ${matchJoins(tx)}
    where true
      ${options.status ? tx`and m.status = ${options.status}` : tx``}
      ${options.id !== undefined ? tx`and m.id = ${options.id}` : tx``}
    order by ${options.newestFirst ? tx`m.start_time desc, m.id desc` : tx`m.start_time, m.id`}`;
  return rows.map((row) => row.match);
}

export async function getMatch(tx: Tx, id: number): Promise<Match | undefined> {
  return (await listMatches(tx, { id }))[0];
}

export async function listBets(tx: Tx, filter: { userId?: number; matchId?: number; betId?: number }): Promise<Bet[]> {
  const rows = await tx<{ bet: Bet }[]>`
    select to_jsonb(b) || jsonb_build_object('match', ${matchJson(tx)}, 'team', to_jsonb(bt)) as bet
    from public.bets b
    join public.matches m on m.id = b.match_id
    ${matchJoins(tx)}
    join public.teams bt on bt.id = b.team_id
    where true
      ${filter.userId !== undefined ? tx`and b.user_id = ${filter.userId}` : tx``}
      ${filter.matchId !== undefined ? tx`and b.match_id = ${filter.matchId}` : tx``}
      ${filter.betId !== undefined ? tx`and b.id = ${filter.betId}` : tx``}
    order by b.created_at desc, b.id desc`;
  return rows.map((row) => row.bet);
}

export async function listTransactions(tx: Tx, filter: { userId?: number; id?: number } = {}): Promise<Transaction[]> {
  const rows = await tx<{ t: Transaction }[]>`
    select to_jsonb(t) as t from public.transactions t
    where true
      ${filter.userId !== undefined ? tx`and t.user_id = ${filter.userId}` : tx``}
      ${filter.id !== undefined ? tx`and t.id = ${filter.id}` : tx``}
    order by t.created_at desc, t.id desc`;
  return rows.map((row) => row.t);
}

/**
 * Users with what they may spend: `pending_withdrawals` (positive, 0 when none) and `available_balance`
 * (wallet_balance − pending_withdrawals, the figure bets and withdrawals check).
 */
export async function listUsers(tx: Tx, filter: { id?: number } = {}): Promise<User[]> {
  const rows = await tx<{ u: User }[]>`
    select to_jsonb(u) || jsonb_build_object(
      'available_balance', u.wallet_balance - w.pending, 'pending_withdrawals', w.pending) as u
    from public.users u
    cross join lateral (
      select coalesce(-sum(t.amount), 0)::bigint as pending from public.transactions t
      where t.user_id = u.id and t.type = 'withdrawal' and t.status = 'pending') w
    where true ${filter.id !== undefined ? tx`and u.id = ${filter.id}` : tx``}
    order by u.id`;
  return rows.map((row) => row.u);
}

export async function getUser(tx: Tx, id: number): Promise<User | undefined> {
  return (await listUsers(tx, { id }))[0];
}

export async function listBankAccounts(tx: Tx, userId: number): Promise<BankAccount[]> {
  const rows = await tx<{ a: BankAccount }[]>`
    select to_jsonb(a) as a from public.bank_accounts a where a.user_id = ${userId} order by a.id`;
  return rows.map((row) => row.a);
}

export async function listTeams(tx: Tx): Promise<Team[]> {
  const rows = await tx<{ t: Team }[]>`select to_jsonb(t) as t from public.teams t order by t.id`;
  return rows.map((row) => row.t);
}

export async function listAuditLog(tx: Tx, limit: number): Promise<AuditLogEntry[]> {
  const rows = await tx<{ a: AuditLogEntry }[]>`
    select to_jsonb(a) as a from public.audit_log a order by a.created_at desc, a.id desc limit ${limit}`;
  return rows.map((row) => row.a);
}

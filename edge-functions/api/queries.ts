/**
 * The reads behind the answers. Each is one statement returning `body`: the JSON the API answers, built in
 * SQL with the shape functions of the database (app.match_json, app.bet_json, app.user_json; plain rows
 * for transactions, bank accounts, teams and audit entries), so every entity has the field names of spec §3
 * and one timestamp format. "Newest first" is the order of ids, which are handed out in insertion order.
 * They run as the reading role: RLS decides which rows the caller sees (a
 * player's bets and transactions are their own; admins see all).
 */
import type { Sql } from '../_shared/db.ts';
import type { MatchStatus } from '../../src/domain/limits.ts';

/** The caller's id, evaluated once per statement. */
const me = (q: Sql) => q`(select app.current_user_id())`;

export function matchList(q: Sql, options: { status?: MatchStatus; newestFirst?: boolean } = {}) {
  const order = options.newestFirst ? q`m.start_time desc, m.id desc` : q`m.start_time, m.id`;
  return q`
    select coalesce(json_agg(app.match_json(m) order by ${order}), '[]')::text as body
    from public.matches m
    ${options.status ? q`where m.status = ${options.status}` : q``}`;
}

export function matchById(q: Sql, id: number) {
  return q`select app.match_json(m)::text as body from public.matches m where m.id = ${id}`;
}

/** Bets newest first: the caller's own (`userId` omitted), or one user's or one match's (admins). */
export function betList(q: Sql, filter: { userId?: number; matchId?: number }) {
  const where = filter.matchId !== undefined ? q`b.match_id = ${filter.matchId}` : q`b.user_id = ${filter.userId ?? me(q)}`;
  return q`
    select coalesce(json_agg(app.bet_json(b) order by b.id desc), '[]')::text as body
    from public.bets b
    where ${where}`;
}

/** Ledger rows newest first: the caller's own (`userId` omitted) or one user's (admins). */
export function transactionList(q: Sql, userId?: number) {
  return q`
    select coalesce(json_agg(t order by t.id desc), '[]')::text as body
    from public.transactions t
    where t.user_id = ${userId ?? me(q)}`;
}

/** Every ledger row newest first, optionally of one type and/or status (admins). */
export function adminTransactionList(q: Sql, filter: { type?: string; status?: string }) {
  return q`
    select coalesce(json_agg(t order by t.id desc), '[]')::text as body
    from public.transactions t
    where true
      ${filter.type ? q`and t.type = ${filter.type}` : q``}
      ${filter.status ? q`and t.status = ${filter.status}` : q``}`;
}

export function userList(q: Sql) {
  return q`select coalesce(json_agg(app.user_json(u) order by u.id), '[]')::text as body from public.users u`;
}

/** One user (the caller when `id` is omitted). */
export function userById(q: Sql, id?: number) {
  return q`select app.user_json(u)::text as body from public.users u where u.id = ${id ?? me(q)}`;
}

/** A row when user `id` exists (admin reads answer 404 for an unknown user rather than an empty list). */
export function userExists(q: Sql, id: number) {
  return q`select 1 from public.users where id = ${id}`;
}

/** Bank accounts in the order they were added: the caller's own (`userId` omitted) or one user's. */
export function bankAccountList(q: Sql, userId?: number) {
  return q`
    select coalesce(json_agg(a order by a.id), '[]')::text as body
    from public.bank_accounts a
    where a.user_id = ${userId ?? me(q)}`;
}

export function teamList(q: Sql) {
  return q`select coalesce(json_agg(t order by t.id), '[]')::text as body from public.teams t`;
}

export function auditLog(q: Sql, limit: number) {
  return q`
    select coalesce(json_agg(a order by a.id desc), '[]')::text as body
    from (select * from public.audit_log order by id desc limit ${limit}) a`;
}

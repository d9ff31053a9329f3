/**
 * The reads behind the answers. Each is one statement returning `body`: the JSON the API answers, built in
 * SQL with the shape functions of the database (app.match_json, app.bet_json, app.user_json,
 * app.bank_account_json; plain rows for transactions, teams and audit entries), so every entity has the field names of its
 * contract (src/domain/entities.ts) and one timestamp format. "Newest first" is the order of ids, which are handed out in insertion order.
 * They run as the reading role: RLS decides which rows the caller sees (a
 * player's bets and transactions are their own; admins see all).
 */
import { z } from 'zod';
import type { Sql } from '@shared/db.ts';
import {
  MATCH_STATUSES,
  TRANSACTION_TYPES,
  type MatchStatus,
  type TransactionStatus,
  type TransactionType,
  type UserStatus,
} from '@/domain/limits.ts';
import { pageStatement, type Fragment, type Page } from './paging.ts';

/** The caller's id, evaluated once per statement. */
const me = (q: Sql) => q`(select app.current_user_id())`;

export const MATCH_NOT_FOUND = 'Match not found';

/** `?status=` of a match list (matchList). */
export const matchesQuery = z.object({
  status: z.enum(MATCH_STATUSES, { error: 'Status must be one of upcoming, live, completed' }).optional(),
});

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

/** One page of bets, newest first: the caller's own (`userId` omitted), or one user's or one match's (admins, counted). */
export function betPage(q: Sql, page: Page, filter: { userId?: number; matchId?: number }) {
  const where =
    filter.matchId !== undefined ? q`b.match_id = ${filter.matchId}` : q`b.user_id = ${filter.userId ?? me(q)}`;
  const counted = filter.matchId !== undefined || filter.userId !== undefined;
  return pageStatement(q, page, {
    from: q`public.bets b`,
    alias: 'b',
    where,
    json: { page: (rows) => q`app.bets_json(${rows})` },
    total: counted ? q`select count(*) from public.bets b where ${where}` : undefined,
    stake:
      filter.matchId !== undefined
        ? q`select coalesce(sum(b.amount), 0) from public.bets b where ${where} and b.status = 'placed'`
        : undefined,
  });
}

export interface TransactionFilter {
  /** One user's rows (the caller's when omitted and `everyone` is not set). */
  userId?: number;
  /** Every user's rows (admins: RLS shows a player only their own anyway). */
  everyone?: boolean;
  type?: TransactionType;
  status?: TransactionStatus;
  /** The transactions search: a transaction id or user id (digits, '#' allowed), else a whole reference id. */
  search?: string;
  /** Count the rows of the list with the first page (the admin user tabs). */
  counted?: boolean;
}

/** A search of the transactions screen by id: digits, an optional leading '#'; else null. */
function searchedId(search: string | undefined): number | null {
  const text = search?.trim().replace(/^#/, '') ?? '';
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : null;
}

/**
 * One page of ledger rows, newest first (see TransactionFilter). A search of digits matches the transaction
 * id or the user id: the user's rows come newest first from their (user_id, id) index and the one row of
 * that id joins them (a union, because `id = n or user_id = n` makes PostgreSQL sort all of a heavy
 * player's rows). Any other search matches a whole reference: references are upper case, and the unique
 * (type, reference_id) index answers it, so no index of the ledger has to serve substring searches.
 */
export function transactionPage(q: Sql, page: Page, filter: TransactionFilter) {
  const owner = filter.everyone ? q`true` : q`t.user_id = ${filter.userId ?? me(q)}`;
  const id = searchedId(filter.search);
  const text = filter.search?.trim();
  const where = q`${owner}
    ${filter.type ? q`and t.type = ${filter.type}` : q``}
    ${filter.status ? q`and t.status = ${filter.status}` : q``}
    ${text && id === null ? q`and t.type = any(${q.array([...TRANSACTION_TYPES])}::text[]) and t.reference_id = upper(${text})` : q``}`;
  const from =
    id === null
      ? q`public.transactions t`
      : (beyond: Fragment) => q`(
      (select * from public.transactions t where t.user_id = ${id} and ${where} ${beyond} order by t.id desc limit ${page.limit + 1})
      union all
      (select * from public.transactions t where t.id = ${id} and t.user_id <> ${id} and ${where} ${beyond})
    ) t`;
  return pageStatement(q, page, {
    from,
    alias: 't',
    where,
    json: { row: (r) => q`row_to_json(${r})` },
    total: filter.counted ? q`select count(*) from public.transactions t where ${where}` : undefined,
  });
}

/**
 * One page of the admin users list, newest first: search, status tab, and only those below zero
 * (app.admin_users, admins only).
 */
export function userPage(q: Sql, page: Page, filter: { search?: string; status?: UserStatus; belowZero?: boolean }) {
  const search = filter.search?.trim() || null;
  return pageStatement(q, page, {
    from: q`app.admin_users(${search}, ${filter.status ?? null}, ${page.after}, ${page.limit + 1}, ${filter.belowZero ?? false}) u`,
    alias: 'u',
    json: { row: (r) => q`app.user_json(${r})` },
  });
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
    select coalesce(jsonb_agg(app.bank_account_json(a) order by a.id), '[]')::text as body
    from public.bank_accounts a
    where a.user_id = ${userId ?? me(q)}`;
}

/** One page of a user's bank accounts in the order they were added (admins). */
export function bankAccountPage(q: Sql, page: Page, userId: number) {
  return pageStatement(q, page, {
    from: q`public.bank_accounts a`,
    alias: 'a',
    where: q`a.user_id = ${userId}`,
    order: 'asc',
    json: { row: (r) => q`app.bank_account_json(${r})` },
  });
}

export function teamList(q: Sql) {
  return q`select coalesce(json_agg(t order by t.id), '[]')::text as body from public.teams t`;
}

export function auditLog(q: Sql, limit: number) {
  return q`
    select coalesce(json_agg(a order by a.id desc), '[]')::text as body
    from (select * from public.audit_log order by id desc limit ${limit}) a`;
}

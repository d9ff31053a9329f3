-- Settlement at match-day size (ARCHITECTURE.md §9): declaring the winner of a match with 100,000 bets
-- updates every bet, writes 100,000 ledger rows and credits every winner in one transaction. Profiled with
-- EXPLAIN ANALYZE (auto_explain, nested statements), the time went to three things fixed here:
--
-- 1. CHECK users_username_charset used the bounded regex '^[A-Za-z0-9_.-]{3,255}$', which PostgreSQL
--    evaluates about 45 times slower than the unbounded one (about 20 µs a row). Every update of a user row
--    (each bet, deposit and settlement credit) re-checks it. The length bounds are already their own CHECK
--    (users_username_check, >= 3) and the column type (varchar(255)), so the regex keeps only the charset.
-- 2. Index maintenance on updates: an update that changes no indexed column and finds room on its page is a
--    HOT update and touches no index. Bets change once (placed → won/lost/cancelled) and users' balances
--    change all the time, so both tables keep free room on each page (fillfactor) and their status and
--    balance columns stay out of every index (the bets-of-a-match index no longer includes status: all bets
--    of a live match are placed anyway).
-- 3. Indexes that settlement fills for nothing: the dashboard's 7-day window over bets.created_at is a range
--    over insertion order, which a BRIN index serves at a fraction of a B-tree's upkeep; the referral and
--    withdrawal-account indexes only need the rows that have a value.

/** Constraints */

alter table public.users drop constraint users_username_charset;
alter table public.users add constraint users_username_charset check (username ~ '^[A-Za-z0-9_.-]+$');

/** Storage */

-- Existing pages keep their fill until rewritten (VACUUM FULL); new and rewritten pages leave the room.
alter table public.users set (fillfactor = 70);
alter table public.bets set (fillfactor = 50);

/** Indexes */

drop index public.bets_match_id_status_idx;
-- foreign key, "bets of this match", settlement
create index bets_match_id_idx on public.bets (match_id);

drop index public.bets_created_at_idx;
-- dashboard window (last 7 days)
create index bets_created_at_idx on public.bets using brin (created_at);

drop index public.users_referred_by_idx;
-- foreign key (referrals): only referred users have one
create index users_referred_by_idx on public.users (referred_by) where referred_by is not null;

drop index public.transactions_bank_account_id_idx;
-- foreign key: only withdrawals name a bank account
create index transactions_bank_account_id_idx on public.transactions (bank_account_id) where bank_account_id is not null;

-- Catalog comments say the rule in words: the comments of five tables and of the dashboard function pointed
-- to sections of a specification the repository does not have. Only comments change.

comment on table public.teams is 'Cricket teams: the ten teams of the league (reference data).';
comment on table public.users is
  'Players and administrators. wallet_balance always equals the sum of the user''s completed ledger rows.';
comment on table public.bank_accounts is 'Players'' saved bank accounts, the destinations of withdrawals.';
comment on table public.matches is 'Cricket matches. Readable by everyone; changed by admin functions only.';
comment on table public.bets is 'Players'' bets: placed, then won/lost at settlement or cancelled on abandon.';
comment on function app.dashboard_stats() is
  'Admin dashboard statistics: totals, the last 7 days'' activity, pending queues, newest matches and transactions. Caller: API as an admin.';

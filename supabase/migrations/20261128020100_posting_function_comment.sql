-- The posting function's description: one new completed ledger row without house transfers (a bet's stake)
-- is posted in a few statements of its own.

comment on function app.post_transfers(public.transactions[], app.house_transfers[], timestamptz) is
  'The one posting function: writes ledger rows and house transfers and moves the balances (in one statement; a single new completed row, such as a bet''s stake, in a few of its own). Internal: the money functions.';

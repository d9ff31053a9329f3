-- Demo data for local runs only (never needed by tests or production). `npm start` applies it once, on a
-- new database, with `supabase db push --include-seed` (which runs it in one transaction).
--
-- The demo player signs in as demo / demo1234: the hash below is the API's scrypt hash of that local-only
-- demo password (edge-functions/_shared/password.ts format); passwords are never hashed in SQL.
--
-- Money moves only through the real app.* functions (claims set transaction-local, as the API does), so the
-- demo ledger reconciles like real data. The seeding admin `seed_admin` has a disabled password hash: it
-- cannot sign in (the operator's admin is created by `npm start` / `npm run admin:create`).

select set_config(
  'seed.demo_password_hash',
  'scrypt$16384$8$1$WAHv6wpQVmaoN6B3hlUt1g==$mkQjFnFAXpbzUbgtdizMXLUjabX0/xRGvF+aKeZvTqjurjNDm+KTyXUHRVLe5fF4OzKt9xcRpEySY692GFeojw==',
  true
);

do $$
declare
  v_admin public.users;
  v_demo public.users;
  v_rahul public.users;
  v_priya public.users;
  v_account public.bank_accounts;
  v_upcoming1 public.matches;
  v_upcoming2 public.matches;
  v_upcoming3 public.matches;
  v_live public.matches;
  v_completed public.matches;
  v_abandoned public.matches;
  v_ref text;

  -- claims of a user, transaction-local, exactly as the API sets them
  c_claims constant text := '{"role":"authenticated","user_id":%s,"app_role":"%s"}';
begin
  /** People */

  v_admin := app.create_admin('seed_admin', '!disabled-seed-admin', 'Seed Admin', 'seed-admin@example.com');
  v_demo := app.register_user('demo', current_setting('seed.demo_password_hash'), 'Demo Player',
                              'demo@example.com', '+91 98765 43210', null);
  v_rahul := app.register_user('rahul', '!disabled-demo-user', 'Rahul Sharma', 'rahul@example.com', null,
                               v_demo.referral_code);
  v_priya := app.register_user('priya', '!disabled-demo-user', 'Priya Patel', 'priya@example.com', '+91 91234 56789', null);

  /** Wallets: deposits completed through the gateway webhook */

  perform set_config('request.jwt.claims', format(c_claims, v_demo.id, 'user'), true);
  v_ref := 'REF-' || (extract(epoch from now())::bigint * 1000 + 1) || '-DEMO';
  perform app.request_deposit(25000, 'UPI', v_ref);
  perform set_config('request.jwt.claims', '', true);
  perform app.complete_deposit(v_ref, 25000, 'success', 'SANDBOX-' || v_ref);

  perform set_config('request.jwt.claims', format(c_claims, v_rahul.id, 'user'), true);
  v_ref := 'REF-' || (extract(epoch from now())::bigint * 1000 + 2) || '-RAHL';
  perform app.request_deposit(10000, 'upi', v_ref);
  perform set_config('request.jwt.claims', '', true);
  -- rahul was referred by demo: demo's referral bonus waits until rahul's settled stakes reach this deposit
  perform app.complete_deposit(v_ref, 10000, 'success', 'SANDBOX-' || v_ref);

  perform set_config('request.jwt.claims', format(c_claims, v_priya.id, 'user'), true);
  v_ref := 'REF-' || (extract(epoch from now())::bigint * 1000 + 3) || '-PRYA';
  perform app.request_deposit(5000, 'upi', v_ref);
  perform set_config('request.jwt.claims', '', true);
  perform app.complete_deposit(v_ref, 5000, 'success', 'SANDBOX-' || v_ref);

  -- a deposit still waiting for the gateway (shows in the admin's pending list)
  perform set_config('request.jwt.claims', format(c_claims, v_demo.id, 'user'), true);
  perform app.request_deposit(2000, 'upi', 'REF-' || (extract(epoch from now())::bigint * 1000 + 4) || '-WAIT');

  /** Matches in every state */

  perform set_config('request.jwt.claims', format(c_claims, v_admin.id, 'admin'), true);
  v_upcoming1 := app.create_match(1, 2, date_trunc('hour', now()) + interval '1 day 2 hours', 't20', 'Wankhede Stadium, Mumbai');
  v_upcoming2 := app.create_match(3, 4, date_trunc('hour', now()) + interval '2 days 2 hours', 'ipl', 'M. Chinnaswamy Stadium, Bengaluru');
  v_upcoming3 := app.create_match(5, 6, date_trunc('hour', now()) + interval '3 days 2 hours', 'odi', 'Arun Jaitley Stadium, Delhi');
  v_live := app.create_match(7, 8, date_trunc('hour', now()) - interval '1 hour', 't20', 'Sawai Mansingh Stadium, Jaipur');
  v_completed := app.create_match(9, 10, date_trunc('hour', now()) - interval '1 day', 't20', 'Narendra Modi Stadium, Ahmedabad');
  v_abandoned := app.create_match(1, 4, date_trunc('hour', now()) - interval '2 days', 't20', 'Eden Gardens, Kolkata');
  perform app.start_match(v_live.id);
  perform app.start_match(v_completed.id);
  perform app.start_match(v_abandoned.id);

  /** Bets (placed while the matches were open) */

  perform set_config('request.jwt.claims', format(c_claims, v_demo.id, 'user'), true);
  perform app.place_bet(v_live.id, 7, 2000, 3, 6000);
  perform app.place_bet(v_upcoming1.id, 1, 1000, 3, 3000);
  perform app.place_bet(v_completed.id, 9, 1500, 3, 4500);
  perform app.place_bet(v_abandoned.id, 4, 1000, 3, 3000);
  perform set_config('request.jwt.claims', format(c_claims, v_rahul.id, 'user'), true);
  perform app.place_bet(v_live.id, 8, 1000);
  perform app.place_bet(v_completed.id, 10, 2000);
  perform set_config('request.jwt.claims', format(c_claims, v_priya.id, 'user'), true);
  perform app.place_bet(v_upcoming2.id, 3, 1000);

  /** Results */

  perform set_config('request.jwt.claims', format(c_claims, v_admin.id, 'admin'), true);
  perform app.update_live(v_live.id, '186/5', '98/2', 2, 11.3, v_live.team1_id);
  perform app.update_live(v_completed.id, '178/6', '165/9', 2, 20, v_completed.team1_id);
  -- an operator's price with a margin (over-round 105.3), beside the default 3.00 of the other matches
  perform app.set_match_odds(v_upcoming2.id, 1.85, 1.95);
  perform app.declare_winner(v_completed.id, 9);   -- demo's bet wins, rahul's loses
  perform app.abandon_match(v_abandoned.id);        -- demo's stake is refunded

  /** Bank account and a pending withdrawal for the demo player */

  perform set_config('request.jwt.claims', format(c_claims, v_demo.id, 'user'), true);
  v_account := app.add_bank_account('Demo Player', '123456789012', 'HDFC0001234', 'HDFC Bank');
  perform app.request_withdrawal(1000, v_account.id);

  perform set_config('request.jwt.claims', '', true);

  if exists (select 1 from app.reconcile()) then
    raise exception 'seed.sql: the demo ledger does not reconcile';
  end if;
end
$$;

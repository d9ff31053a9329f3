-- Idempotency keys (POST /api/bets, /api/wallet/withdraw): lookup → business function → save in one
-- transaction; a retry replays the saved response; a key reused for another request is a 409.
begin;
set local search_path = tests, public;
select plan(9);

select tests.create_user('retry', 3000);
select tests.create_user('someone', 0);
select tests.create_match('upcoming') as m \gset

select tests.call_as('retry');
select is_empty($$select * from app.idempotency_lookup('key-1', 'hash-a')$$, 'a new key has no saved response');
-- the API now runs the business function and saves its response
select app.place_bet(:m, 1, 1000);
select lives_ok($$select app.idempotency_save('key-1', 'hash-a', 201, '{"id": 1}')$$, 'the response is saved');
select results_eq($$select response_status, response_body from app.idempotency_lookup('key-1', 'hash-a')$$,
  $$values (201, '{"id": 1}'::jsonb)$$, 'a retry finds the saved response');
select throws_ok($$select * from app.idempotency_lookup('key-1', 'hash-b')$$, 'BT409',
  'Idempotency key reused with a different request', 'the same key for another request is refused');
select throws_ok($$select * from app.idempotency_lookup('', 'hash-b')$$, 'BT400', 'Idempotency key is required', 'a key is required');
select throws_ok(format($$select * from app.idempotency_lookup(%L, 'h')$$, repeat('k', 256)), 'BT400',
  'Idempotency key must be at most 255 characters', 'keys at most 255 characters');

select tests.call_as('someone');
select is_empty($$select * from app.idempotency_lookup('key-1', 'hash-z')$$, 'keys are per user');
select tests.reset_role();
select throws_ok($$select * from app.idempotency_lookup('key-1', 'hash-a')$$, 'BT401', 'Authentication required',
  'a caller is required');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;

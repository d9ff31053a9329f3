-- Idempotency keys (POST /api/bets, /api/wallet/withdraw): app.idempotency_begin → business function →
-- app.idempotency_save in one transaction; a retry raises BT<saved status> with the saved answer (the API
-- replays it); a key reused for another request is a 409.
begin;
set local search_path = tests, public;
select plan(10);

select tests.create_user('retry', 3000);
select tests.create_user('someone', 0);
select tests.create_match('upcoming') as m \gset

select tests.call_as('retry');
select lives_ok($$select app.idempotency_begin('key-1', 'hash-a')$$, 'a new key starts the request');
-- the API now runs the business function and saves its answer
select app.place_bet(:m, 1, 1000);
select lives_ok($$select app.idempotency_save('key-1', 'hash-a', 201, '{"id": 1}')$$, 'the answer is saved');
select throws_ok($$select app.idempotency_begin('key-1', 'hash-a')$$, 'BT201', 'Idempotent replay',
  'a retry ends its transaction with the saved status');
select tests.reset_role();
select is(tests.replayed_answer('retry', 'key-1', 'hash-a'), '{"id": 1}', 'and carries the saved answer');
select tests.call_as('retry');
select throws_ok($$select app.idempotency_begin('key-1', 'hash-b')$$, 'BT409',
  'Idempotency key reused with a different request', 'the same key for another request is refused');
select throws_ok($$select app.idempotency_begin('', 'hash-b')$$, 'BT400', 'Idempotency key is required', 'a key is required');
select throws_ok(format($$select app.idempotency_begin(%L, 'h')$$, repeat('k', 256)), 'BT400',
  'Idempotency key must be at most 255 characters', 'keys at most 255 characters');

select tests.call_as('someone');
select lives_ok($$select app.idempotency_begin('key-1', 'hash-z')$$, 'keys are per user');
select tests.reset_role();
select throws_ok($$select app.idempotency_begin('key-1', 'hash-a')$$, 'BT401', 'Authentication required',
  'a caller is required');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;

-- Settings: the rules the operator tunes (app.settings rows: the house-risk limits, referrals, the controls
-- on admin money, the default price), what each accepts (app.check_risk_setting), and admins reading and
-- changing them, every change audited. A change that loosens a control on the money admins create waits
-- for a second admin (app.settings_changes); tightening applies at once.

/** Settings */

insert into app.settings (key, value, description) values
  ('max_stake_per_bet', '100000', 'Largest stake of one bet, in rupees.'),
  ('max_stake_per_player_match', '200000', 'Largest total stake of one player on one match, in rupees.'),
  ('max_liability_per_match', '1000000',
   'Largest net amount the house may pay out on a match should either side win (payouts on that side minus all stakes), in rupees.'),
  ('betting_close_over', '15.0',
   'Betting closes when a live match reaches this over of the second innings; null keeps it open until the result.'),
  ('betting_pre_match_only', 'false', 'When true, betting closes when a match starts.'),
  ('live_feed_stale_seconds', '180',
   'Bets pause on a live match (or an upcoming one past its start) whose last live update or start is older than this; null: never.'),
  ('referral_bonuses_per_month', '20', 'Referral bonuses one referrer may be paid in 30 days.'),
  ('adjustment_review_amount', '50000', 'Admin credits of at least this many rupees wait for a second admin''s approval.'),
  ('admin_credit_per_day', '500000', 'Rupees one admin may credit to wallets in 24 hours, pending credits included.'),
  ('default_odds', '3.00', 'The price (decimal odds) of both sides of a new match; admins then price each match.');

/** Tables */

-- Changes of the settings that loosen a control on the money admins create (a higher
-- adjustment_review_amount or admin_credit_per_day), waiting for a second admin: otherwise one admin could
-- raise both and then credit as much as they like, each credit under the new threshold and cap. The admin
-- who proposed a change never applies it; another approves (it applies then) or rejects it. Tightening
-- applies at once. changes: the values to set; previous: theirs when proposed.
create table app.settings_changes (
  id bigint generated always as identity primary key,
  proposed_by bigint not null references public.users (id),
  changes jsonb not null,
  previous jsonb not null,
  status varchar(10) not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  decided_by bigint references public.users (id),
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  constraint settings_changes_decided check ((status = 'pending') = (decided_by is null) and (decided_by is null) = (decided_at is null)),
  constraint settings_changes_second_admin check (status <> 'approved' or decided_by <> proposed_by)
);
comment on table app.settings_changes is
  'Settings changes that loosen a control on admin money, pending until a second admin approves or rejects them.';
-- the pending changes on the Settings screen, newest first
create index settings_changes_pending_idx on app.settings_changes (id) where status = 'pending';
-- foreign keys
create index settings_changes_proposed_by_idx on app.settings_changes (proposed_by);
create index settings_changes_decided_by_idx on app.settings_changes (decided_by) where decided_by is not null;
revoke all on app.settings_changes from public, anon, authenticated, service_role;

/** Functions */

-- Raises BT400 with the setting's message unless p_value is a valid value of setting p_key. The bounds and
-- texts are those of src/domain/risk.ts (tests/db/limits-agree.test.ts checks they agree).
create function app.check_risk_setting(p_key text, p_value jsonb)
returns void
language plpgsql
immutable
set search_path = ''
as $$
declare
  c_max_amount constant bigint := 1000000000;
  v_number numeric := case when jsonb_typeof(p_value) = 'number' then p_value::numeric end;
  v_whole boolean := v_number is not null and v_number = trunc(v_number);
begin
  if p_key = 'max_stake_per_bet' then
    if not (v_whole and v_number between 1000 and c_max_amount) then
      raise exception using errcode = 'BT400', message = 'Maximum stake per bet must be between ₹1,000 and ₹1,000,000,000';
    end if;
  elsif p_key = 'max_stake_per_player_match' then
    if not (v_whole and v_number between 1000 and c_max_amount) then
      raise exception using errcode = 'BT400',
        message = 'Maximum stake per player per match must be between ₹1,000 and ₹1,000,000,000';
    end if;
  elsif p_key = 'max_liability_per_match' then
    if not (v_whole and v_number between 0 and c_max_amount) then
      raise exception using errcode = 'BT400', message = 'Liability limit per match must be between ₹0 and ₹1,000,000,000';
    end if;
  elsif p_key = 'betting_close_over' then
    -- null: no close in play; else an over as matches.current_over writes it (overs.balls, balls 0-5)
    if jsonb_typeof(p_value) is distinct from 'null' and not coalesce(
         v_number between 0 and 20 and v_number * 10 = trunc(v_number * 10) and trunc(v_number * 10) % 10 <= 5, false
       ) then
      raise exception using errcode = 'BT400',
        message = 'Close over must be empty or between 0 and 20 (overs.balls, balls 0-5)';
    end if;
  elsif p_key = 'betting_pre_match_only' then
    if jsonb_typeof(p_value) is distinct from 'boolean' then
      raise exception using errcode = 'BT400', message = 'Pre-match only must be true or false';
    end if;
  elsif p_key = 'live_feed_stale_seconds' then
    -- null: bets never pause for a quiet feed
    if jsonb_typeof(p_value) is distinct from 'null' and not coalesce(v_whole and v_number between 30 and 3600, false) then
      raise exception using errcode = 'BT400', message = 'Stale live score must be empty or between 30 and 3,600 seconds';
    end if;
  elsif p_key = 'referral_bonuses_per_month' then
    if not coalesce(v_whole and v_number between 0 and 1000, false) then
      raise exception using errcode = 'BT400', message = 'Referral bonuses per month must be between 0 and 1,000';
    end if;
  elsif p_key = 'adjustment_review_amount' then
    if not coalesce(v_whole and v_number between 1 and 100000, false) then
      raise exception using errcode = 'BT400', message = 'Second approval threshold must be between ₹1 and ₹100,000';
    end if;
  elsif p_key = 'admin_credit_per_day' then
    if not coalesce(v_whole and v_number between 0 and c_max_amount, false) then
      raise exception using errcode = 'BT400', message = 'Daily credit limit per admin must be between ₹0 and ₹1,000,000,000';
    end if;
  elsif p_key = 'default_odds' then
    -- a price as matches.team1_odds holds it
    if not coalesce(v_number between 1.01 and 100 and v_number = round(v_number, 2), false) then
      raise exception using errcode = 'BT400', message = 'Default odds must be between 1.01 and 100.00, with at most two decimals';
    end if;
  else
    raise exception using errcode = 'BT400', message = 'Unknown setting: ' || p_key;
  end if;
end;
$$;
comment on function app.check_risk_setting(text, jsonb) is 'Internal: 400 unless a house-risk setting''s value is valid.';

-- The house-risk settings. Caller: API as an admin.
create function app.get_risk_settings()
returns app.risk_settings
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app.require_admin();
  return app.current_risk_settings();
end;
$$;
comment on function app.get_risk_settings() is 'The house-risk settings. Caller: API as an admin.';

-- Whether setting p_key going from p_old to p_new loosens a control on the money admins create: a higher
-- threshold for a second admin's approval, or a higher daily credit cap per admin.
create function app.loosens_admin_money(p_key text, p_old jsonb, p_new jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_key in ('adjustment_review_amount', 'admin_credit_per_day') and (p_new #>> '{}')::numeric > (p_old #>> '{}')::numeric
$$;
comment on function app.loosens_admin_money(text, jsonb, jsonb) is
  'Internal: whether a settings change raises adjustment_review_amount or admin_credit_per_day.';

-- Sets checked settings (p_changes, {"key": value, …}) for p_admin_id, whose rows the caller has locked.
-- One audit row ('settings.update') holds the old and new values of the keys that changed. When the close or
-- stale-feed settings change, the matches still to be settled are brought up to date (a close rule that
-- now applies latches; the pause moves), which announces those that changed. Internal:
-- app.update_risk_settings and app.decide_settings_change.
create function app.apply_risk_settings(p_admin_id bigint, p_changes jsonb)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_before jsonb := to_jsonb(app.current_risk_settings());
  v_settings app.risk_settings;
  v_old jsonb;
  v_new jsonb;
begin
  update app.settings s set value = c.value
    from jsonb_each(p_changes) c
    where s.key = c.key and s.value <> c.value;
  v_settings := app.current_risk_settings();
  select jsonb_object_agg(b.key, b.value), jsonb_object_agg(b.key, to_jsonb(v_settings) -> b.key)
    into v_old, v_new
    from jsonb_each(v_before) b
    where b.value <> to_jsonb(v_settings) -> b.key;
  if v_old is null then
    return;
  end if;
  perform app.audit(p_admin_id, 'settings.update', 'settings', null, v_old, v_new);

  if v_old ?| array['betting_close_over', 'betting_pre_match_only', 'live_feed_stale_seconds'] then
    update public.matches m set updated_at = now()
      where m.status <> 'completed'
        and ((not m.betting_closed and app.betting_closes_in_play(m))
             or m.betting_pauses_at is distinct from app.betting_pauses_at(m, v_settings));
  end if;
end;
$$;
comment on function app.apply_risk_settings(bigint, jsonb) is
  'Internal: sets checked settings, audits the change and re-announces matches whose betting state it changes.';

-- A settings change as the API answers it: id, changes, previous, status, who proposed it (id and username),
-- who decided it and when.
create function app.settings_change_json(p_change app.settings_changes)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_change.id, 'changes', p_change.changes, 'previous', p_change.previous, 'status', p_change.status,
    'proposed_by', p_change.proposed_by,
    'proposed_by_username', (select u.username from public.users u where u.id = p_change.proposed_by),
    'created_at', p_change.created_at, 'decided_by', p_change.decided_by, 'decided_at', p_change.decided_at)
$$;
comment on function app.settings_change_json(app.settings_changes) is 'Internal: a settings change as the API answers it.';

-- Changes house-risk settings named in p_changes ({"key": value, …}; keys left out keep their value), each
-- checked by app.check_risk_setting (400 on the first invalid one; nothing changes then). A change that
-- loosens a control on admin money (app.loosens_admin_money) is not applied: it is recorded as a pending
-- change for a second admin (app.settings_changes, audit 'settings.change_proposed'); every other change
-- applies at once (app.apply_risk_settings). The settings rows named are locked first, so a concurrent change
-- of the same settings is compared with what it really replaces. Answers {"settings": the settings as they now
-- are, "change": the pending change, or null}.
create function app.update_risk_settings(p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_key text;
  v_value jsonb;
  v_loosening jsonb;
  v_previous jsonb;
  v_at_once jsonb;
  v_change app.settings_changes;
begin
  if jsonb_typeof(p_changes) is distinct from 'object' then
    raise exception using errcode = 'BT400', message = 'Settings must be a JSON object';
  end if;
  for v_key, v_value in select c.key, c.value from jsonb_each(p_changes) c loop
    perform app.check_risk_setting(v_key, v_value);
  end loop;

  perform 1 from app.settings s where s.key in (select jsonb_object_keys(p_changes)) order by s.key for update;
  select coalesce(jsonb_object_agg(c.key, c.value) filter (where app.loosens_admin_money(c.key, s.value, c.value)), '{}'),
         coalesce(jsonb_object_agg(c.key, s.value) filter (where app.loosens_admin_money(c.key, s.value, c.value)), '{}'),
         coalesce(jsonb_object_agg(c.key, c.value) filter (where not app.loosens_admin_money(c.key, s.value, c.value)), '{}')
    into v_loosening, v_previous, v_at_once
    from jsonb_each(p_changes) c
    join app.settings s on s.key = c.key;

  perform app.apply_risk_settings(v_admin.id, v_at_once);
  if v_loosening <> '{}' then
    insert into app.settings_changes (proposed_by, changes, previous)
    values (v_admin.id, v_loosening, v_previous)
    returning * into v_change;
    perform app.audit(v_admin.id, 'settings.change_proposed', 'settings_change', v_change.id, v_previous, v_loosening);
  end if;
  return jsonb_build_object('settings', to_jsonb(app.current_risk_settings()),
                            'change', case when v_change.id is not null then app.settings_change_json(v_change) end);
end;
$$;
comment on function app.update_risk_settings(jsonb) is
  'Changes house-risk settings (validated, audited); a loosening of admin-money controls waits for a second admin. Caller: API as an admin.';

-- The settings changes waiting for a second admin, newest first. Caller: API as an admin.
create function app.pending_settings_changes()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app.require_admin();
  return coalesce((
    select jsonb_agg(app.settings_change_json(c) order by c.id desc)
    from app.settings_changes c
    where c.status = 'pending'), '[]'::jsonb);
end;
$$;
comment on function app.pending_settings_changes() is 'Settings changes waiting for a second admin. Caller: API as an admin.';

-- Approves (p_approve: the change applies now) or rejects a pending settings change. Only an admin other
-- than the one who proposed it may approve it (403 'A second administrator must approve this change'); the
-- proposer may withdraw it by rejecting it. 404 unknown, 409 once decided (the row is locked, so of two
-- admins deciding at once the second finds it decided). Audited ('settings.change_approved' /
-- 'settings.change_rejected'; an approval also writes the 'settings.update' of what it applied). Answers
-- the decided change.
create function app.decide_settings_change(p_id bigint, p_approve boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_change app.settings_changes;
begin
  select * into v_change from app.settings_changes c where c.id = p_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Settings change not found';
  end if;
  if v_change.status <> 'pending' then
    raise exception using errcode = 'BT409', message = 'This change has already been decided';
  end if;
  if p_approve and v_change.proposed_by = v_admin.id then
    raise exception using errcode = 'BT403', message = 'A second administrator must approve this change';
  end if;
  if p_approve then
    perform 1 from app.settings s where s.key in (select jsonb_object_keys(v_change.changes)) order by s.key for update;
    perform app.apply_risk_settings(v_admin.id, v_change.changes);
  end if;
  update app.settings_changes
    set status = case when p_approve then 'approved' else 'rejected' end, decided_by = v_admin.id, decided_at = now()
    where id = v_change.id
    returning * into v_change;
  perform app.audit(v_admin.id, case when p_approve then 'settings.change_approved' else 'settings.change_rejected' end,
    'settings_change', v_change.id, jsonb_build_object('status', 'pending', 'proposed_by', v_change.proposed_by),
    jsonb_build_object('status', v_change.status, 'changes', v_change.changes));
  return app.settings_change_json(v_change);
end;
$$;
comment on function app.decide_settings_change(bigint, boolean) is
  'Approves (applies) or rejects a pending settings change; never by the admin who proposed it. Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.check_risk_setting(text, jsonb),
  app.get_risk_settings(),
  app.loosens_admin_money(text, jsonb, jsonb),
  app.apply_risk_settings(bigint, jsonb),
  app.settings_change_json(app.settings_changes),
  app.update_risk_settings(jsonb),
  app.pending_settings_changes(),
  app.decide_settings_change(bigint, boolean)
  from public, anon, authenticated, service_role;
grant execute on function
  app.get_risk_settings(),
  app.update_risk_settings(jsonb),
  app.pending_settings_changes(),
  app.decide_settings_change(bigint, boolean)
  to service_role;

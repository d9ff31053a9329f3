/**
 * A player's protection as it stands: each deposit limit with what is left of it and a pending raise or
 * removal with the time it applies, then the time-out or self-exclusion. Read-only: the player's page puts
 * its forms beside it, the admin's user screen shows it as it is (admins cannot change it).
 */
import { DataList, Stack, Text } from '@chakra-ui/react';
import { formatDateTime, formatRupees } from '../../../domain/money.ts';
import { LIMIT_PERIOD_WINDOWS, LIMIT_PERIODS, type AccountLimits, type LimitPeriod } from '../../../domain/protection.ts';

export const periodLabel = (period: LimitPeriod) => `${period[0].toUpperCase()}${period.slice(1)} (${LIMIT_PERIOD_WINDOWS[period]})`;

function LimitValue({ limits, period }: { limits: AccountLimits; period: LimitPeriod }) {
  const amount = limits.deposit_limits[period];
  const pending = limits.pending_changes.find((change) => change.period === period);
  return (
    <Stack gap="0">
      <Text>
        {amount === null ? 'No limit' : `${formatRupees(amount)} · ${formatRupees(limits.deposit_remaining[period] ?? 0)} left`}
      </Text>
      {pending && (
        <Text fontSize="sm" color="fg.muted">
          {pending.amount === null ? 'No limit' : formatRupees(pending.amount)} from {formatDateTime(pending.effective_at)}
        </Text>
      )}
    </Stack>
  );
}

export function DepositLimitList({ limits }: { limits: AccountLimits }) {
  return (
    <DataList.Root orientation="horizontal" size="sm" aria-label="Deposit limits by period">
      {LIMIT_PERIODS.map((period) => (
        <DataList.Item key={period}>
          <DataList.ItemLabel minW="36">{periodLabel(period)}</DataList.ItemLabel>
          <DataList.ItemValue>
            <LimitValue limits={limits} period={period} />
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

export function ExclusionList({ limits }: { limits: AccountLimits }) {
  return (
    <DataList.Root orientation="horizontal" size="sm" aria-label="Time-out and self-exclusion">
      <DataList.Item>
        <DataList.ItemLabel minW="36">Time-out</DataList.ItemLabel>
        <DataList.ItemValue>{limits.timeout_until ? `Until ${formatDateTime(limits.timeout_until)}` : 'None'}</DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel minW="36">Self-exclusion</DataList.ItemLabel>
        <DataList.ItemValue>
          {limits.self_excluded_until ? `Until ${formatDateTime(limits.self_excluded_until)}` : 'None'}
        </DataList.ItemValue>
      </DataList.Item>
    </DataList.Root>
  );
}

/**
 * A player's protection as it stands: each deposit limit with what is left of it and a pending raise or
 * removal with the time it applies, then the time-out or self-exclusion. Read-only: the player's page puts
 * its forms beside it, the admin's user screen shows it as it is (admins cannot change it). Plain layout
 * primitives, so it renders alike in the player's and the admin's Chakra systems.
 */
import { Box, Grid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { formatDateTime, formatRupees } from '../domain/money.ts';
import { LIMIT_PERIOD_WINDOWS, LIMIT_PERIODS, type LimitPeriod } from '../domain/protection.ts';
import type { AccountLimits } from '../domain/protection-schemas.ts';

export const periodLabel = (period: LimitPeriod) =>
  `${period[0].toUpperCase()}${period.slice(1)} (${LIMIT_PERIOD_WINDOWS[period]})`;

/** Terms and their values: stacked on phones, side by side from `sm`. */
function Definitions({ label, items }: { label: string; items: { term: string; value: ReactNode }[] }) {
  return (
    <Grid
      as="dl"
      aria-label={label}
      templateColumns={{ base: '1fr', sm: 'minmax(10rem, auto) 1fr' }}
      columnGap="4"
      rowGap="2"
    >
      {items.map(({ term, value }) => (
        <Box key={term} display="contents">
          <Text as="dt" fontSize="sm" color="fg.muted">
            {term}
          </Text>
          <Box as="dd" mb={{ base: '1', sm: '0' }}>
            {value}
          </Box>
        </Box>
      ))}
    </Grid>
  );
}

function LimitValue({ limits, period }: { limits: AccountLimits; period: LimitPeriod }) {
  const amount = limits.deposit_limits[period];
  const pending = limits.pending_changes.find((change) => change.period === period);
  return (
    <Stack gap="0">
      <Text>
        {amount === null
          ? 'No limit'
          : `${formatRupees(amount)} · ${formatRupees(limits.deposit_remaining[period] ?? 0)} left`}
      </Text>
      {pending && (
        <Text fontSize="sm" color="fg.muted">
          {pending.amount === null ? 'No limit' : formatRupees(pending.amount)} from{' '}
          {formatDateTime(pending.effective_at)}
        </Text>
      )}
    </Stack>
  );
}

export function DepositLimitList({ limits }: { limits: AccountLimits }) {
  return (
    <Definitions
      label="Deposit limits by period"
      items={LIMIT_PERIODS.map((period) => ({
        term: periodLabel(period),
        value: <LimitValue limits={limits} period={period} />,
      }))}
    />
  );
}

export function ExclusionList({ limits }: { limits: AccountLimits }) {
  const until = (value: string | null) => (value ? `Until ${formatDateTime(value)}` : 'None');
  return (
    <Definitions
      label="Time-out and self-exclusion"
      items={[
        { term: 'Time-out', value: until(limits.timeout_until) },
        { term: 'Self-exclusion', value: until(limits.self_excluded_until) },
      ]}
    />
  );
}

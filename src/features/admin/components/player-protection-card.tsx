import { Card, Heading, Text } from '@chakra-ui/react';
import { DepositLimitList, ExclusionList } from '../../../components/protection-summary.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { useAccountLimits } from '../../../lib/account-limits.ts';
import { LoadError } from './load-error.tsx';

/** What the player set for themself: shown, never editable here (only the player may change it). */
export function PlayerProtectionCard({ userId }: { userId: number }) {
  const limits = useAccountLimits({ userId });
  return (
    <Card.Root as="section" aria-label="Player Protection">
      <Card.Header>
        <Heading size="md">Player Protection</Heading>
        <Text fontSize="sm" color="fg.muted">
          Set by the player. Admins cannot change or lift these.
        </Text>
      </Card.Header>
      <Card.Body gap="4">
        {limits.isPending ? (
          <PageSpinner label="Loading limits" />
        ) : limits.isError ? (
          <LoadError what="limits" />
        ) : (
          <>
            <DepositLimitList limits={limits.data} />
            <ExclusionList limits={limits.data} />
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}

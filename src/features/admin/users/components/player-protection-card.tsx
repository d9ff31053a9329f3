import { DepositLimitList, ExclusionList } from '@/components/protection-summary.tsx';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useAccountLimits } from '@/lib/account-limits.ts';
import { LoadError } from '@/components/ui/load-error.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';

/** What the player set for themself: shown, never editable here (only the player may change it). */
export function PlayerProtectionCard({ userId }: { userId: number }) {
  const limits = useAccountLimits({ userId });
  return (
    <SectionCard title="Player Protection" description="Set by the player. Admins cannot change or lift these." gap="4">
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
    </SectionCard>
  );
}

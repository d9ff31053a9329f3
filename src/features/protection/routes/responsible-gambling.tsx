/**
 * /responsible-gambling (linked from the footer and the user menu): deposit limits with
 * their pending changes, a time-out or self-exclusion, reality checks, and statements. The rules are the server's; this page
 * shows what it answers.
 */
import { Container, Heading, Separator, Stack, Text } from '@chakra-ui/react';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { activeExclusion } from '@/domain/protection.ts';
import { useAccountLimits } from '@/lib/account-limits.ts';
import { useRealityCheck } from '../api/reality-check.ts';
import { DepositLimitForm } from '../components/deposit-limit-form.tsx';
import { RealityCheckForm } from '../components/reality-check-form.tsx';
import { ExclusionNotice } from '@/components/exclusion-notice.tsx';
import { DepositLimitList, ExclusionList } from '@/components/protection-summary.tsx';
import { StatementForm } from '../components/statement-form.tsx';
import { SelfExclusionForm, TimeoutForm } from '../components/take-a-break.tsx';

export const LIMITS_ERROR = 'Error loading your limits. Please try again later.';

export function ResponsibleGamblingRoute() {
  const limits = useAccountLimits();
  const realityCheck = useRealityCheck();
  const exclusion = activeExclusion(limits.data);

  return (
    <Container maxW="3xl" py="6">
      <Stack gap="5">
        <Stack gap="2">
          <Heading as="h1" size="2xl">
            Responsible gambling
          </Heading>
          <Text color="fg.muted">
            Betting should stay entertainment. Limit what you deposit, take a break when you need one, and download your
            history whenever you like.
          </Text>
        </Stack>
        {exclusion && <ExclusionNotice exclusion={exclusion} />}
        {limits.isPending ? (
          <PageSpinner label="Loading your limits" />
        ) : limits.isError ? (
          <Text color="fg.error" role="alert">
            {LIMITS_ERROR}
          </Text>
        ) : (
          <>
            <SectionCard
              id="deposit-limits"
              gap="5"
              title="Deposit limits"
              description="The most you can deposit in 24 hours, 7 days or 30 days."
            >
              <DepositLimitList limits={limits.data} />
              <DepositLimitForm limits={limits.data} />
            </SectionCard>
            <SectionCard
              id="take-a-break"
              gap="5"
              title="Take a break"
              description="Stop betting and deposits for a while. Both start at once and cannot be undone."
            >
              <ExclusionList limits={limits.data} />
              <Stack gap="2">
                <Heading as="h3" size="sm">
                  Time-out
                </Heading>
                <TimeoutForm />
              </Stack>
              <Separator />
              <Stack gap="2">
                <Heading as="h3" size="sm">
                  Self-exclusion
                </Heading>
                <SelfExclusionForm />
              </Stack>
            </SectionCard>
          </>
        )}
        {realityCheck.data && (
          <SectionCard
            id="reality-checks"
            gap="5"
            title="Reality checks"
            description="How often we stop to show your time and results."
          >
            <RealityCheckForm current={realityCheck.data} />
          </SectionCard>
        )}
        <SectionCard
          id="statement"
          gap="5"
          title="Statement"
          description="Your transactions between two dates as a CSV file, with the balance after each."
        >
          <StatementForm />
        </SectionCard>
      </Stack>
    </Container>
  );
}

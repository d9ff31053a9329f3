/**
 * The price of each side of an upcoming or live match (decimal odds, two decimals). Bets
 * already placed keep theirs; players' open pages get the new prices with the match's live event. The card
 * shows the over-round of the prices typed, and says so when it lets players back both teams for a profit.
 */
import { Button, Input, SimpleGrid } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { Match } from '@/domain/entities.ts';
import { formatOdds, overroundPercent } from '@/domain/price.ts';
import { oddsSchema } from '@/domain/schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useSetMatchOdds } from '../api/set-match-odds.ts';
import { matchTeams } from '@/features/admin/shared/lib/labels.ts';
import { OverroundLine } from './overround-line.tsx';

const typedOdds = z
  .string()
  .trim()
  .transform((value) => (value === '' ? Number.NaN : Number(value)))
  .pipe(oddsSchema);
export const oddsFormSchema = z.object({ team1_odds: typedOdds, team2_odds: typedOdds });
type FormInput = z.input<typeof oddsFormSchema>;
type FormOutput = z.output<typeof oddsFormSchema>;

/** The over-round of the prices as typed, while both read as prices. */
function typedOverround(values: Partial<FormInput>): number | null {
  const parsed = oddsFormSchema.safeParse(values);
  return parsed.success ? overroundPercent(parsed.data.team1_odds, parsed.data.team2_odds) : null;
}

export function OddsCard({ match }: { match: Match }) {
  const [team1, team2] = matchTeams(match);
  const setOdds = useSetMatchOdds();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(oddsFormSchema),
    defaultValues: { team1_odds: formatOdds(match.team1_odds), team2_odds: formatOdds(match.team2_odds) },
  });
  const overround = typedOverround(useWatch({ control }));

  // mutateAsync, not mutate's callbacks: the new prices re-key this card (the page gives it a key of its
  // prices, so that a change made elsewhere refills the form), and mutate's callbacks do not run for an
  // unmounted caller.
  const onSubmit = handleSubmit((odds) =>
    setOdds.mutateAsync({ id: match.id, ...odds }).then(
      () => notify({ title: 'Odds updated', description: 'New bets take the new prices.' }),
      (error) => notify({ title: 'Failed to update odds', description: errorMessage(error), variant: 'destructive' }),
    ),
  );

  return (
    <SectionCard
      title="Odds"
      description="The price of a bet on each team (decimal odds: 1.85 pays ₹1,850 for ₹1,000). Bets already placed keep theirs."
    >
      <FormStack gap="4" onSubmit={onSubmit} noValidate aria-label="Odds">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <FormField label={`${team1.name} odds`} error={errors.team1_odds?.message}>
            <Input inputMode="decimal" {...register('team1_odds')} />
          </FormField>
          <FormField label={`${team2.name} odds`} error={errors.team2_odds?.message}>
            <Input inputMode="decimal" {...register('team2_odds')} />
          </FormField>
        </SimpleGrid>
        {overround !== null && <OverroundLine percent={overround} />}
        <Button type="submit" colorPalette="blue" alignSelf="start" loading={setOdds.isPending}>
          Save Odds
        </Button>
      </FormStack>
    </SectionCard>
  );
}

/**
 * The live score an admin types in: team scores (runs/wickets), innings 1–2, the over
 * (one decimal, within the match type's innings) and the team batting first of a live match → PATCH
 * update-live, with the 'Match updated' toasts. In the second innings the scores decide when betting closes
 * (a passed target, ten wickets, the last over), so who batted first matters: the form asks, and the server
 * infers it from a first innings with one score.
 */
import { Button, Input, NativeSelect, SimpleGrid } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { Match } from '@/domain/entities.ts';
import { SHORT_TEXT } from '@/domain/limits.ts';
import { INNINGS_OVERS, MAX_OVER, priceMessages, SCORE_PATTERN } from '@/domain/price.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useUpdateLive } from '../api/update-live.ts';
import { matchTeams } from '@/features/admin/shared/lib/labels.ts';
import { SectionCard } from '@/components/ui/section-card.tsx';

/** The last over an innings of this match may reach. */
const lastOver = (match: Match) => INNINGS_OVERS[match.match_type] ?? MAX_OVER;

export const overMessage = (overs: number) => `Over must be between 0 and ${overs}, with at most one decimal`;

const score = z
  .string()
  .trim()
  .max(SHORT_TEXT, `Score must be at most ${SHORT_TEXT} characters`)
  .refine((value) => value === '' || SCORE_PATTERN.test(value), priceMessages.scoreFormat);

export function updateLiveFormSchema(overs: number) {
  return z.object({
    team1_score: score,
    team2_score: score,
    current_innings: z.enum(['1', '2'], { error: 'Innings must be 1 or 2' }),
    current_over: z
      .string()
      .trim()
      .regex(/^\d{1,3}(\.\d)?$/, overMessage(overs))
      .refine((value) => Number(value) <= overs, overMessage(overs)),
    /** '' while nobody has said (the server then infers it from the first innings) */
    batting_first_team_id: z.string(),
  });
}
type FormValues = z.infer<ReturnType<typeof updateLiveFormSchema>>;

export function UpdateLiveForm({ match }: { match: Match }) {
  const [team1, team2] = matchTeams(match);
  const overs = lastOver(match);
  const update = useUpdateLive();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(updateLiveFormSchema(overs)),
    defaultValues: {
      team1_score: match.team1_score ?? '',
      team2_score: match.team2_score ?? '',
      current_innings: match.current_innings === 2 ? '2' : '1',
      current_over: String(match.current_over ?? 0),
      batting_first_team_id: match.batting_first_team_id === null ? '' : String(match.batting_first_team_id),
    },
  });

  const onSubmit = handleSubmit((values) =>
    update.mutate(
      {
        id: match.id,
        team1_score: values.team1_score || null,
        team2_score: values.team2_score || null,
        current_innings: Number(values.current_innings),
        current_over: Number(values.current_over),
        batting_first_team_id: values.batting_first_team_id ? Number(values.batting_first_team_id) : null,
      },
      {
        onSuccess: () => notify({ title: 'Match updated', description: 'Live match details have been updated.' }),
        onError: (error) =>
          notify({ title: 'Failed to update match', description: errorMessage(error), variant: 'destructive' }),
      },
    ),
  );

  return (
    <SectionCard title="Update live score">
      <FormStack gap="4" onSubmit={onSubmit} noValidate>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <FormField label={`${team1.name} score`} error={errors.team1_score?.message} helperText="runs/wickets">
            <Input placeholder="e.g. 145/3" {...register('team1_score')} />
          </FormField>
          <FormField label={`${team2.name} score`} error={errors.team2_score?.message} helperText="runs/wickets">
            <Input placeholder="e.g. 98/2" {...register('team2_score')} />
          </FormField>
          <FormField label="Innings" error={errors.current_innings?.message}>
            <NativeSelect.Root>
              <NativeSelect.Field {...register('current_innings')}>
                <option value="1">1st Innings</option>
                <option value="2">2nd Innings</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label="Over" error={errors.current_over?.message} helperText={`0 to ${overs}, e.g. 12.3`}>
            <Input inputMode="decimal" {...register('current_over')} />
          </FormField>
          <FormField
            label="Batting first"
            helperText="Decides, with the scores, when the second innings has been won or lost (betting closes then)."
          >
            <NativeSelect.Root>
              <NativeSelect.Field {...register('batting_first_team_id')}>
                <option value="">Not known yet</option>
                <option value={team1.id}>{team1.name}</option>
                <option value={team2.id}>{team2.name}</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
        </SimpleGrid>
        <Button type="submit" colorPalette="blue" alignSelf="start" loading={update.isPending}>
          Update Score
        </Button>
      </FormStack>
    </SectionCard>
  );
}

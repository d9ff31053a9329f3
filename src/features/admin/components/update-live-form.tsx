/**
 * Beyond the spec (its live-update call had no trigger): team scores, innings 1–2 and the over (0–20,
 * one decimal) of a live match → PATCH update-live, with the 'Match updated' toasts.
 */
import { Button, Input, NativeSelect, SimpleGrid } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import type { Match } from '../../../domain/entities.ts';
import { MATCH_OVERS, SHORT_TEXT } from '../../../domain/limits.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useUpdateLive } from '../api/update-live.ts';
import { matchTeams } from '../lib/labels.ts';
import { SectionCard } from '../../../components/ui/section-card.tsx';

export const OVER_MESSAGE = `Over must be between 0 and ${MATCH_OVERS}, with at most one decimal`;

export const updateLiveFormSchema = z.object({
  team1_score: z.string().trim().max(SHORT_TEXT, `Score must be at most ${SHORT_TEXT} characters`),
  team2_score: z.string().trim().max(SHORT_TEXT, `Score must be at most ${SHORT_TEXT} characters`),
  current_innings: z.enum(['1', '2'], { error: 'Innings must be 1 or 2' }),
  current_over: z
    .string()
    .trim()
    .regex(/^\d{1,2}(\.\d)?$/, OVER_MESSAGE)
    .refine((value) => Number(value) <= MATCH_OVERS, OVER_MESSAGE),
});
type FormValues = z.infer<typeof updateLiveFormSchema>;

export function UpdateLiveForm({ match }: { match: Match }) {
  const [team1, team2] = matchTeams(match);
  const update = useUpdateLive();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(updateLiveFormSchema),
    defaultValues: {
      team1_score: match.team1_score ?? '',
      team2_score: match.team2_score ?? '',
      current_innings: match.current_innings === 2 ? '2' : '1',
      current_over: String(match.current_over ?? 0),
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
          <FormField label={`${team1.name} score`} error={errors.team1_score?.message}>
            <Input placeholder="e.g. 145/3" {...register('team1_score')} />
          </FormField>
          <FormField label={`${team2.name} score`} error={errors.team2_score?.message}>
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
          <FormField label="Over" error={errors.current_over?.message} helperText={`0 to ${MATCH_OVERS}, e.g. 12.3`}>
            <Input inputMode="decimal" {...register('current_over')} />
          </FormField>
        </SimpleGrid>
        <Button type="submit" colorPalette="blue" alignSelf="start" loading={update.isPending}>
          Update Score
        </Button>
      </FormStack>
    </SectionCard>
  );
}

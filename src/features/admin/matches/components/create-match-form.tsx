/**
 * Team 1 and Team 2 (selects fed by the team list), Match Type, Match Date & Time, Venue (optional). Same
 * teams are refused with the toast; on success the admin lands on the new match's page.
 */
import { Button, HStack, Input, NativeSelect, SimpleGrid } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import { MATCH_TYPES } from '@/domain/limits.ts';
import { adminPaths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useCreateMatch } from '../api/create-match.ts';
import { useTeams } from '../api/get-teams.ts';
import {
  createMatchFormSchema,
  newMatchDefaults,
  newMatchFrom,
  type CreateMatchValues,
} from '../lib/create-match-form.ts';
import { MATCH_TYPE_LABELS } from '@/features/admin/shared/lib/labels.ts';
import { MatchDateTimeField } from './match-date-time-field.tsx';

function FieldSelect({
  field,
  placeholder,
  disabled,
  children,
}: {
  field: UseFormRegisterReturn;
  placeholder?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <NativeSelect.Root disabled={disabled}>
      <NativeSelect.Field placeholder={placeholder} {...field}>
        {children}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export function CreateMatchForm() {
  const navigate = useNavigate();
  const teams = useTeams();
  useErrorToast(teams.error, 'Error loading teams');
  const create = useCreateMatch();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CreateMatchValues>({
    resolver: zodResolver(createMatchFormSchema),
    defaultValues: newMatchDefaults(new Date()),
  });

  const onSubmit = handleSubmit((values) => {
    const match = newMatchFrom(values);
    if ('refusal' in match) return notify({ ...match.refusal, variant: 'destructive' });
    create.mutate(match.body, {
      onSuccess: (created) => {
        notify({ title: 'Match created', description: 'New match has been successfully created.' });
        navigate(adminPaths.match(created.id));
      },
      onError: (error) =>
        notify({ title: 'Failed to create match', description: errorMessage(error), variant: 'destructive' }),
    });
  });

  const teamOptions = (teams.data ?? []).map((team) => (
    <option key={team.id} value={String(team.id)}>
      {team.name} ({team.short_name})
    </option>
  ));

  return (
    <FormStack gap="5" onSubmit={onSubmit} noValidate aria-label="Create match">
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField label="Team 1" error={errors.team1_id?.message}>
          <FieldSelect field={register('team1_id')} placeholder="Select team 1" disabled={teams.isPending}>
            {teamOptions}
          </FieldSelect>
        </FormField>
        <FormField label="Team 2" error={errors.team2_id?.message}>
          <FieldSelect field={register('team2_id')} placeholder="Select team 2" disabled={teams.isPending}>
            {teamOptions}
          </FieldSelect>
        </FormField>
      </SimpleGrid>
      <FormField label="Match Type" error={errors.match_type?.message}>
        <FieldSelect field={register('match_type')}>
          {MATCH_TYPES.map((type) => (
            <option key={type} value={type}>
              {MATCH_TYPE_LABELS[type]}
            </option>
          ))}
        </FieldSelect>
      </FormField>
      <MatchDateTimeField control={control} register={register} error={errors.date?.message ?? errors.time?.message} />
      <FormField
        label="Venue"
        error={errors.venue?.message}
        helperText="Optional: the stadium or venue where the match will be played."
      >
        <Input placeholder="e.g. Wankhede Stadium, Mumbai" {...register('venue')} />
      </FormField>
      <HStack justify="flex-end" gap="3">
        <Button variant="outline" onClick={() => navigate(adminPaths.matches)}>
          Cancel
        </Button>
        <Button type="submit" colorPalette="blue" loading={create.isPending}>
          Create Match
        </Button>
      </HStack>
    </FormStack>
  );
}

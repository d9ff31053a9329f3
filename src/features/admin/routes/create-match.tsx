/**
 * Team 1 and Team 2 (selects fed by the team list), Match Type, Match Date & Time (a calendar
 * plus a time input; choosing a date keeps the time of day), Venue (optional). Same teams are refused with
 * the toast; on success the admin lands on the new match's page.
 */
import { Box, Button, Card, DatePicker, HStack, Input, NativeSelect, SimpleGrid, Stack, chakra, parseDate } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { useErrorToast } from '../../../components/ui/use-error-toast.ts';
import { LONG_TEXT, MATCH_TYPES } from '../../../domain/limits.ts';
import { messages } from '../../../domain/messages.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useCreateMatch } from '../api/create-match.ts';
import { useTeams } from '../api/get-teams.ts';
import { PageHeader } from '../components/page-header.tsx';
import { adminPaths } from '../../../config/paths.ts';
import { MATCH_TYPE_LABELS } from '../lib/labels.ts';
import { combineDateAndTime, timeOfDay } from '../lib/match-time.ts';

export const createMatchFormSchema = z.object({
  team1_id: z.string().min(1, messages.team1Required),
  team2_id: z.string().min(1, messages.team2Required),
  match_type: z.enum(MATCH_TYPES),
  date: z.string().min(1, messages.matchDateRequired),
  time: z.string().regex(/^\d{2}:\d{2}$/, 'Please enter a valid time'),
  venue: z.string().trim().max(LONG_TEXT, `Venue must be at most ${LONG_TEXT} characters`),
});
type FormValues = z.infer<typeof createMatchFormSchema>;

const [sameTeamsTitle, sameTeamsDescription] = messages.sameTeams.split(': ');

export function CreateMatchRoute() {
  const navigate = useNavigate();
  const teams = useTeams();
  useErrorToast(teams.error, 'Error loading teams');
  const create = useCreateMatch();
  const { register, control, handleSubmit, formState: { errors } } = useForm<FormValues>({
    resolver: zodResolver(createMatchFormSchema),
    defaultValues: { team1_id: '', team2_id: '', match_type: 't20', date: '', time: timeOfDay(new Date()), venue: '' },
  });

  const onSubmit = handleSubmit((values) => {
    if (values.team1_id === values.team2_id) {
      notify({ title: sameTeamsTitle, description: sameTeamsDescription, variant: 'destructive' });
      return;
    }
    const startTime = combineDateAndTime(values.date, values.time);
    if (!startTime) {
      notify({ title: messages.matchDateRequired, variant: 'destructive' });
      return;
    }
    create.mutate(
      {
        match_type: values.match_type,
        status: 'upcoming',
        venue: values.venue,
        team1_id: Number(values.team1_id),
        team2_id: Number(values.team2_id),
        start_time: startTime,
      },
      {
        onSuccess: (match) => {
          notify({ title: 'Match created', description: 'New match has been successfully created.' });
          navigate(adminPaths.match(match.id));
        },
        onError: (error) => notify({ title: 'Failed to create match', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  });

  const teamOptions = (teams.data ?? []).map((team) => (
    <option key={team.id} value={String(team.id)}>
      {team.name} ({team.short_name})
    </option>
  ));

  return (
    <Box maxW="3xl">
      <Button asChild variant="ghost" size="sm" mb="2">
        <RouterLink to={adminPaths.matches}>← Back to Matches</RouterLink>
      </Button>
      <PageHeader title="Create Match" />
      <Card.Root>
        <Card.Body>
          <FormStack gap="5" onSubmit={onSubmit} noValidate aria-label="Create match">
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              <FormField label="Team 1" error={errors.team1_id?.message}>
                <NativeSelect.Root disabled={teams.isPending}>
                  <NativeSelect.Field placeholder="Select team 1" {...register('team1_id')}>
                    {teamOptions}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              <FormField label="Team 2" error={errors.team2_id?.message}>
                <NativeSelect.Root disabled={teams.isPending}>
                  <NativeSelect.Field placeholder="Select team 2" {...register('team2_id')}>
                    {teamOptions}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
            </SimpleGrid>
            <FormField label="Match Type" error={errors.match_type?.message}>
              <NativeSelect.Root>
                <NativeSelect.Field {...register('match_type')}>
                  {MATCH_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {MATCH_TYPE_LABELS[type]}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
            <FormField label="Match Date & Time" error={errors.date?.message ?? errors.time?.message}>
              <Stack gap="3" align="start">
                <Controller
                  control={control}
                  name="date"
                  render={({ field }) => (
                    <DatePicker.Root
                      inline
                      value={field.value ? [parseDate(field.value)] : []}
                      onValueChange={(details) => field.onChange(details.value[0]?.toString() ?? '')}
                      aria-label="Match date"
                    >
                      <DatePicker.Content>
                        <DatePicker.View view="day">
                          <DatePicker.Header />
                          <DatePicker.DayTable />
                        </DatePicker.View>
                        <DatePicker.View view="month">
                          <DatePicker.Header />
                          <DatePicker.MonthTable />
                        </DatePicker.View>
                        <DatePicker.View view="year">
                          <DatePicker.Header />
                          <DatePicker.YearTable />
                        </DatePicker.View>
                      </DatePicker.Content>
                    </DatePicker.Root>
                  )}
                />
                <HStack>
                  <chakra.label htmlFor="match-time" fontSize="sm" color="fg.muted">
                    Time
                  </chakra.label>
                  <Input id="match-time" type="time" w="40" {...register('time')} />
                </HStack>
              </Stack>
            </FormField>
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
        </Card.Body>
      </Card.Root>
    </Box>
  );
}

/**
 * The admin picks one of the two teams; 'Declare Winner & Process Bets' stays disabled until
 * one is picked and opens 'Confirm Match Winner' (the selected team and three bullets). Confirm Winner
 * submits the form (the API's declareWinnerSchema checks the pick) and is disabled while the call is pending
 * or with no selection.
 */
import { Box, Button, List, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { notify } from '@/components/ui/toaster.tsx';
import type { Match } from '@/domain/entities.ts';
import { messages } from '@/domain/messages.ts';
import { declareWinnerSchema } from '@/domain/schemas.ts';
import type { TeamRef } from '@/domain/teams.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useDeclareWinner } from '../api/declare-winner.ts';
import { matchTeams } from '@/features/admin/shared/lib/labels.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { OfflineHint } from '@/components/ui/offline.tsx';
import { useOnline } from '@/lib/use-online.ts';

function TeamChoice({
  teams,
  selected,
  onSelect,
}: {
  teams: readonly TeamRef[];
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  return (
    <RadioGroup.Root
      value={selected}
      onValueChange={(details) => onSelect(details.value)}
      aria-label="Winning team"
      colorPalette="blue"
    >
      <Stack gap="3">
        {teams.map((team) => (
          <RadioGroup.Item
            key={team.id}
            value={String(team.id)}
            borderWidth="1px"
            rounded="md"
            p="3"
            _checked={{ borderColor: 'blue.500', bg: 'blue.50' }}
          >
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>
              {team.name} ({team.short_name})
            </RadioGroup.ItemText>
          </RadioGroup.Item>
        ))}
      </Stack>
    </RadioGroup.Root>
  );
}

const winnerFormSchema = declareWinnerSchema.pick({ winning_team_id: true });

export function DeclareWinnerCard({ match }: { match: Match }) {
  const teams = matchTeams(match);
  const [open, setOpen] = useState(false);
  const declare = useDeclareWinner();
  const online = useOnline();
  const { control, handleSubmit } = useForm<
    z.input<typeof winnerFormSchema>,
    unknown,
    z.output<typeof winnerFormSchema>
  >({ resolver: zodResolver(winnerFormSchema), defaultValues: { winning_team_id: '' } });
  const selected = useWatch({ control, name: 'winning_team_id' });
  const winner = teams.find((team) => String(team.id) === selected) ?? null;

  const onConfirm = handleSubmit(
    ({ winning_team_id }) => {
      const name = teams.find((team) => team.id === winning_team_id)?.name;
      // mutateAsync, not mutate's callbacks: the completed match (from the answer or from the live event,
      // whichever comes first) unmounts this card, and mutate's callbacks do not run for an unmounted caller.
      return declare.mutateAsync({ id: match.id, winning_team_id, result: `${name} won the match` }).then(
        () => {
          setOpen(false);
          notify({ title: 'Winner declared', description: 'Match has been completed and winner has been declared.' });
        },
        (error) =>
          notify({ title: 'Failed to declare winner', description: errorMessage(error), variant: 'destructive' }),
      );
    },
    () => notify({ title: messages.winnerRequired, variant: 'destructive' }),
  );

  return (
    <SectionCard
      title="Declare Winner"
      description="Select the winning team to complete the match and settle its bets."
      gap="4"
    >
      <Controller
        control={control}
        name="winning_team_id"
        render={({ field }) => (
          <TeamChoice
            teams={teams}
            selected={winner && String(winner.id)}
            onSelect={(id) => field.onChange(id ?? '')}
          />
        )}
      />
      <Button colorPalette="yellow" disabled={!winner || !online} onClick={() => setOpen(true)} alignSelf="start">
        Declare Winner & Process Bets
      </Button>
      <OfflineHint />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Confirm Match Winner"
        confirmLabel="Confirm Winner"
        onConfirm={() => void onConfirm()}
        pending={declare.isPending}
        confirmDisabled={!winner || !online}
        confirmPalette="yellow"
      >
        <Stack gap="3">
          <Box>
            <Text>You are declaring the winner of Match #{match.id}:</Text>
            <Text fontWeight="bold" fontSize="lg" data-testid="selected-winner">
              {winner ? winner.name : 'No team selected'}
            </Text>
          </Box>
          <Text>This will:</Text>
          <List.Root ps="5">
            <List.Item>Mark the match as completed</List.Item>
            <List.Item>Settle bets on the winning team at the odds each was placed at</List.Item>
            <List.Item>Mark bets on the losing team as lost</List.Item>
          </List.Root>
        </Stack>
      </ConfirmDialog>
    </SectionCard>
  );
}

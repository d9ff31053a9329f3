/**
 * The bet slip's form: what it holds (the team picked, null until then, and the amount's digits), its rules
 * (betSchema's team and amount, loaded after the first paint: src/lib/lazy-zod-resolver.ts) and sending it at
 * the price shown. A refusal for a stale price reads the new prices and says so in the slip.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { notify } from '@/components/ui/toaster.tsx';
import { paths } from '@/config/paths.ts';
import type { Match, User } from '@/domain/entities.ts';
import { messages } from '@/domain/messages.ts';
import { priceOf } from '@/domain/price.ts';
import type { betSlipSchema } from '@/domain/schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { isOddsChanged, refreshPrices, usePlaceBet } from '../api/place-bet.ts';

type SlipInput = z.input<typeof betSlipSchema>;
type SlipOutput = z.output<typeof betSlipSchema>;
export type SlipForm = UseFormReturn<SlipInput, unknown, SlipOutput>;

const empty: SlipInput = { team_id: null, amount: '' };

const resolver = lazyZodResolver(() => import('@/domain/schemas.ts').then((schemas) => schemas.betSlipSchema));

export function useSlipForm(): SlipForm {
  return useForm<SlipInput, unknown, SlipOutput>({ resolver, defaultValues: empty });
}

/** The amount typed so far as a number (0 while empty). */
export function amountOf(text: unknown): number {
  return text === '' || text === undefined ? 0 : Number(text);
}

/** 'Title: description' split into a toast's two lines. */
function toastParts(text: string): { title: string; description: string } {
  const at = text.indexOf(': ');
  return { title: text.slice(0, at), description: text.slice(at + 2) };
}

/**
 * Sends a valid slip unless the balance cannot cover it; an invalid amount is told in a toast. `repriced` is
 * the team whose price changed under the slip (the bet was refused), until the next bet is sent.
 */
export function usePlaceFromSlip(form: SlipForm, match: Match, user: User | null | undefined) {
  const placeBet = usePlaceBet();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [repriced, setRepriced] = useState<number | null>(null);
  const place = ({ team_id, amount }: SlipOutput) => {
    setRepriced(null);
    if (amount > (user?.available_balance ?? 0)) {
      return notify({
        ...toastParts(messages.betInsufficient),
        variant: 'destructive',
        action: { label: 'Recharge', onClick: () => navigate(paths.wallet) },
      });
    }
    placeBet.mutate(
      { match_id: match.id, team_id, amount, odds: priceOf(match, team_id) },
      {
        onSuccess: () => {
          notify({ title: 'Bet placed successfully', description: 'Your bet has been placed. Good luck!' });
          form.reset(empty);
        },
        onError: (error) => {
          notify({ title: 'Failed to place bet', description: errorMessage(error), variant: 'destructive' });
          if (isOddsChanged(error))
            refreshPrices(queryClient, match.id).then(
              () => setRepriced(team_id),
              () => setRepriced(team_id),
            );
        },
      },
    );
  };
  const refuse = () => notify({ ...toastParts(messages.betMin), variant: 'destructive' });
  return { submit: form.handleSubmit(place, refuse), pending: placeBet.isPending, repriced };
}

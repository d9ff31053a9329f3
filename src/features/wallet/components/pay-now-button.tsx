/**
 * 'Pay now' on the player's own pending deposit: a payment abandoned at the gateway (or a redirect that
 * never happened) is resumed by posting the same reference and amount again, which the API answers with
 * the same pending deposit and its gateway page; the browser then goes there as after a new request.
 */
import { Button } from '@chakra-ui/react';
import type { Transaction } from '@/domain/entities.ts';
import { useCreateDeposit } from '../api/create-deposit.ts';

export function PayNowButton({ deposit }: { deposit: Transaction & { reference_id: string } }) {
  const pay = useCreateDeposit();
  return (
    <Button
      size="xs"
      colorPalette="green"
      aria-label={`Pay now ${deposit.reference_id}`}
      loading={pay.isPending}
      onClick={() => pay.mutate({ amount: deposit.amount, paymentMethod: 'upi', reference: deposit.reference_id })}
    >
      Pay now
    </Button>
  );
}

/**
 * Withdraw: amount (digits only, as typed) and one of the user's bank accounts, processing
 * 24-48 hours, fee ₹0. A user without a bank account gets a dialog pointing to the Bank Accounts tab when
 * the form opens and again on submitting. Before sending: signed in, the available balance (wallet balance
 * minus pending withdrawals, what the server checks) covers the amount, and one completed deposit of ₹1,000
 * or more. While the transactions or bank accounts failed to load, those checks cannot be made: the form
 * shows the error and does not submit.
 */
import { Box, Button, HStack, NativeSelect, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { BankAccount, Transaction, User } from '@/domain/entities.ts';
import { messages } from '@/domain/messages.ts';
import { formatRupees } from '@/domain/money.ts';
import type { WithdrawalInput, withdrawalSchema } from '@/domain/schemas.ts';
import { withdrawalRefusal, type WithdrawalRefusal } from '@/domain/withdrawal.ts';
import { AmountInput } from '@/components/ui/amount-input.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { OfflineHint } from '@/components/ui/offline.tsx';
import { useOnline } from '@/lib/use-online.ts';
import { notify } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { heldForWithdrawals } from '@/lib/format.ts';
import { useCreateWithdrawal } from '../api/create-withdrawal.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';

const resolver = lazyZodResolver(() => import('@/domain/schemas.ts').then((schemas) => schemas.withdrawalSchema));

export const NO_BANK_ACCOUNT = 'You need to add a bank account before withdrawing funds.';

const [depositTitle, depositDescription] = messages.qualifyingDepositRequired.split(': ');

export interface WithdrawFormProps {
  user: User | null | undefined;
  bankAccounts: BankAccount[];
  transactions: Transaction[];
  onAddBankAccount: () => void;
  /** Why the transactions or bank accounts are missing (their load failed); blocks submission. */
  loadError?: string;
}

/** What the player is told when the form refuses to send. */
function refusalToast(
  refusal: WithdrawalRefusal,
  user: User | null | undefined,
): { title: string; description: string } {
  if (refusal === 'signed-out' || !user)
    return { title: 'Authentication error', description: 'Please log in to withdraw funds' };
  if (refusal === 'insufficient-balance') {
    return {
      title: messages.insufficientBalance,
      description: `Your available balance is ${formatRupees(user.available_balance)}${heldForWithdrawals(user.pending_withdrawals)}.`,
    };
  }
  return { title: depositTitle, description: depositDescription };
}

function maskedNumber(accountNumber: string): string {
  return `••••${accountNumber.slice(-4)}`;
}

/** The dialog for a user without a bank account; its button leads to the Bank Accounts tab. */
function NoBankAccountDialog({
  open,
  onOpenChange,
  onAddBankAccount,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAddBankAccount: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Withdraw Funds"
      description={NO_BANK_ACCOUNT}
      cancelLabel={null}
      confirmLabel="Add Bank Account"
      onConfirm={() => {
        onOpenChange(false);
        onAddBankAccount();
      }}
    />
  );
}

/** How long a withdrawal takes and what it costs. */
function WithdrawalTerms() {
  return (
    <Box bg="bg.muted" rounded="md" p="3" fontSize="sm">
      <HStack justify="space-between">
        <Text>Processing time</Text>
        <Text fontWeight="medium">24-48 hours</Text>
      </HStack>
      <HStack justify="space-between">
        <Text>Fee</Text>
        <Text fontWeight="medium">₹0</Text>
      </HStack>
    </Box>
  );
}

export function WithdrawForm({ user, bankAccounts, transactions, onAddBankAccount, loadError }: WithdrawFormProps) {
  const withdrawal = useCreateWithdrawal();
  const online = useOnline();
  const noBankAccount = !loadError && bankAccounts.length === 0;
  const [askForBankAccount, setAskForBankAccount] = useState(noBankAccount);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<z.input<typeof withdrawalSchema>, unknown, WithdrawalInput>({
    resolver,
    defaultValues: { amount: '', bankAccountId: bankAccounts.length === 1 ? String(bankAccounts[0].id) : '' },
  });

  const validateAndSend = handleSubmit((values) => {
    const refusal = withdrawalRefusal(user, values.amount, transactions);
    if (refusal) return notify({ ...refusalToast(refusal, user), variant: 'destructive' });
    withdrawal.mutate(values, {
      onSuccess: () => {
        notify({
          title: 'Withdrawal request submitted',
          description: `${formatRupees(values.amount)} will be credited to your bank account within 24-48 hours.`,
        });
        reset({ amount: '', bankAccountId: values.bankAccountId });
      },
      onError: (error) =>
        notify({ title: 'Withdrawal failed', description: errorMessage(error), variant: 'destructive' }),
    });
  });
  const onSubmit: typeof validateAndSend = (event) => {
    if (loadError) {
      event?.preventDefault();
      return Promise.resolve();
    }
    if (noBankAccount) {
      event?.preventDefault();
      setAskForBankAccount(true);
      return Promise.resolve();
    }
    return validateAndSend(event);
  };

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Withdraw funds">
      <NoBankAccountDialog
        open={noBankAccount && askForBankAccount}
        onOpenChange={setAskForBankAccount}
        onAddBankAccount={onAddBankAccount}
      />
      {loadError && (
        <Text color="fg.error" role="alert">
          {loadError}
        </Text>
      )}
      <Text fontSize="sm">
        Available balance: <strong>{formatRupees(user?.available_balance ?? 0)}</strong>
        {heldForWithdrawals(user?.pending_withdrawals ?? 0)}
      </Text>
      <FormField label="Amount (₹)" error={errors.amount?.message}>
        <AmountInput field={register('amount')} autoComplete="off" placeholder="Enter amount" />
      </FormField>
      <FormField label="Bank Account" error={errors.bankAccountId?.message}>
        <NativeSelect.Root>
          <NativeSelect.Field {...register('bankAccountId')} placeholder="Select a bank account">
            {bankAccounts.map((account) => (
              <option key={account.id} value={String(account.id)}>
                {account.bank_name} {maskedNumber(account.account_number)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <WithdrawalTerms />
      <Button
        type="submit"
        colorPalette="blue"
        loading={withdrawal.isPending}
        loadingText="Submitting..."
        disabled={Boolean(loadError) || !online}
      >
        Request Withdrawal
      </Button>
      <OfflineHint />
    </FormStack>
  );
}

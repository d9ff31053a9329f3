/** Add a bank account: IFSC upper-cased as typed; the confirmation field is never sent. */
import { Button, Input, SimpleGrid } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { bankAccountFormSchema } from '@/domain/schemas.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useCreateBankAccount } from '../api/create-bank-account.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';

const resolver = lazyZodResolver(() => import('@/domain/schemas.ts').then((schemas) => schemas.bankAccountFormSchema));

type FormInput = z.input<typeof bankAccountFormSchema>;
type FormOutput = z.output<typeof bankAccountFormSchema>;

const empty: FormInput = {
  account_holder: '',
  account_number: '',
  confirm_account_number: '',
  ifsc_code: '',
  bank_name: '',
};

export function BankAccountForm({ userId, onAdded }: { userId: number; onAdded?: () => void }) {
  const create = useCreateBankAccount();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver,
    defaultValues: empty,
  });
  const ifsc = register('ifsc_code');

  const onSubmit = handleSubmit(({ account_holder, account_number, ifsc_code, bank_name }) =>
    create.mutate(
      { account_holder, account_number, ifsc_code, bank_name, user_id: userId },
      {
        onSuccess: () => {
          notify({ title: 'Bank account added', description: `${bank_name} account saved.` });
          reset(empty);
          onAdded?.();
        },
        onError: (error) =>
          notify({ title: 'Failed to add bank account', description: errorMessage(error), variant: 'destructive' }),
      },
    ),
  );

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Add bank account">
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField label="Account Holder Name" error={errors.account_holder?.message}>
          <Input {...register('account_holder')} autoComplete="name" />
        </FormField>
        <FormField label="Bank Name" error={errors.bank_name?.message}>
          <Input {...register('bank_name')} autoComplete="off" />
        </FormField>
        <FormField label="Account Number" error={errors.account_number?.message}>
          <Input {...register('account_number')} inputMode="numeric" autoComplete="off" />
        </FormField>
        <FormField label="Confirm Account Number" error={errors.confirm_account_number?.message}>
          <Input {...register('confirm_account_number')} inputMode="numeric" autoComplete="off" />
        </FormField>
        <FormField label="IFSC Code" error={errors.ifsc_code?.message}>
          <Input
            {...ifsc}
            autoComplete="off"
            maxLength={11}
            textTransform="uppercase"
            onChange={(event) => {
              event.target.value = event.target.value.toUpperCase();
              return ifsc.onChange(event);
            }}
          />
        </FormField>
      </SimpleGrid>
      <Button type="submit" colorPalette="blue" alignSelf="start" loading={create.isPending} loadingText="Saving...">
        Add Bank Account
      </Button>
    </FormStack>
  );
}

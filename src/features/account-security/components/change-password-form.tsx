/**
 * Change the password: the current one, the new one twice (the sign-up rules). Every other session of the
 * user ends; this one goes on under a new session cookie (a copy of the old one stops working).
 */
import { Button, Input } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { securityMessages } from '@/domain/account-security.ts';
import type { ChangePasswordForm as Values } from '@/domain/account-security-schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { useChangePassword } from '../api/change-password.ts';

const resolver = lazyZodResolver(() =>
  import('@/domain/account-security-schemas.ts').then((schemas) => schemas.changePasswordFormSchema),
);

export function ChangePasswordForm() {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values>({
    resolver,
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });

  const onSubmit = handleSubmit(({ current_password, new_password }) =>
    change.mutate(
      { current_password, new_password },
      {
        onSuccess: () => {
          reset();
          notify({
            title: securityMessages.passwordChanged,
            description: 'You were signed out on your other devices.',
          });
        },
        onError: (error) =>
          notify({ title: 'Failed to change password', description: errorMessage(error), variant: 'destructive' }),
      },
    ),
  );

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Change password" maxW="sm">
      <FormField label="Current password" error={errors.current_password?.message}>
        <Input {...register('current_password')} type="password" autoComplete="current-password" />
      </FormField>
      <FormField label="New password" error={errors.new_password?.message}>
        <Input {...register('new_password')} type="password" autoComplete="new-password" />
      </FormField>
      <FormField label="Confirm new password" error={errors.confirm_password?.message}>
        <Input {...register('confirm_password')} type="password" autoComplete="new-password" />
      </FormField>
      <Button
        type="submit"
        colorPalette="blue"
        alignSelf="flex-start"
        loading={change.isPending}
        loadingText="Saving..."
      >
        Change password
      </Button>
    </FormStack>
  );
}

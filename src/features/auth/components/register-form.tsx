import { Button, Input } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { RegisterInput, registerSchema } from '@/domain/schemas.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { APP_NAME } from '@/config/app.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useRegister } from '../api/register.ts';

const resolver = lazyZodResolver(() => import('@/domain/schemas.ts').then((schemas) => schemas.registerSchema));

export function RegisterForm({ onSuccess }: { onSuccess?: () => void }) {
  const registration = useRegister();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof registerSchema>, unknown, RegisterInput>({
    resolver,
    defaultValues: { name: '', username: '', email: '', password: '', phone: '', referral_code: '' },
  });

  const onSubmit = handleSubmit((values) =>
    registration.mutate(values, {
      onSuccess: (user) => {
        notify({
          title: 'Registration successful',
          description: `Welcome to ${APP_NAME}, the cricket-league betting app, ${user.name}!`,
        });
        onSuccess?.();
      },
      onError: (error) =>
        notify({ title: 'Registration failed', description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Register">
      <FormField label="Full Name" error={errors.name?.message}>
        <Input {...register('name')} autoComplete="name" />
      </FormField>
      <FormField label="Username" error={errors.username?.message}>
        <Input {...register('username')} autoComplete="username" />
      </FormField>
      <FormField label="Email" error={errors.email?.message}>
        <Input {...register('email')} type="email" autoComplete="email" />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input {...register('password')} type="password" autoComplete="new-password" />
      </FormField>
      <FormField label="Phone (optional)" error={errors.phone?.message}>
        <Input {...register('phone')} type="tel" autoComplete="tel" />
      </FormField>
      <FormField label="Referral Code (optional)" error={errors.referral_code?.message}>
        <Input {...register('referral_code')} autoComplete="off" />
      </FormField>
      <Button type="submit" colorPalette="blue" loading={registration.isPending} loadingText="Creating account...">
        Register
      </Button>
    </FormStack>
  );
}

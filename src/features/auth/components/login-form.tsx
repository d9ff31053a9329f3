import { Button, Input } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { loginSchema, type LoginInput } from '../../../domain/schemas.ts';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useLogin } from '../api/login.ts';

export function LoginForm({ onSuccess }: { onSuccess?: () => void }) {
  const login = useLogin();
  const { register, handleSubmit, formState: { errors } } = useForm<z.input<typeof loginSchema>, unknown, LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: (user) => {
        notify({ title: 'Login successful', description: `Welcome back, ${user.name}!` });
        onSuccess?.();
      },
      onError: (error) => notify({ title: 'Login failed', description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Login">
      <FormField label="Username" error={errors.username?.message}>
        <Input {...register('username')} autoComplete="username" />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input {...register('password')} type="password" autoComplete="current-password" />
      </FormField>
      <Button type="submit" colorPalette="blue" loading={login.isPending} loadingText="Signing in...">
        Login
      </Button>
    </FormStack>
  );
}

import { Button, Input } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { LoginInput, loginSchema } from '@/domain/schemas.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { useLogin } from '../api/login.ts';

const resolver = lazyZodResolver(() => import('@/domain/schemas.ts').then((schemas) => schemas.loginSchema));

/**
 * Username and password; for an account with two-factor sign-in, the server answers `mfa_required` and the
 * form asks for the authenticator's code (or a recovery code) before signing in again.
 */
export function LoginForm({ onSuccess }: { onSuccess?: () => void }) {
  const login = useLogin();
  const [codePrompt, setCodePrompt] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<z.input<typeof loginSchema>, unknown, LoginInput>({
    resolver,
    defaultValues: { username: '', password: '', totp_code: '' },
  });

  const onSubmit = handleSubmit((values) =>
    login.mutate(
      { ...values, totp_code: values.totp_code || undefined },
      {
        onSuccess: (user) => {
          notify({ title: 'Login successful', description: `Welcome back, ${user.name}!` });
          onSuccess?.();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.body?.mfa_required === true && !values.totp_code) {
            setCodePrompt(String(error.body.message));
            setTimeout(() => setFocus('totp_code'));
            return;
          }
          notify({ title: 'Login failed', description: errorMessage(error), variant: 'destructive' });
        },
      },
    ),
  );

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Login">
      <FormField label="Username" error={errors.username?.message}>
        <Input {...register('username')} autoComplete="username" />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input {...register('password')} type="password" autoComplete="current-password" />
      </FormField>
      {codePrompt && (
        <FormField label="Authentication code" helperText={codePrompt} error={errors.totp_code?.message}>
          <Input {...register('totp_code')} inputMode="numeric" autoComplete="one-time-code" />
        </FormField>
      )}
      <Button type="submit" colorPalette="blue" loading={login.isPending} loadingText="Signing in...">
        Login
      </Button>
    </FormStack>
  );
}

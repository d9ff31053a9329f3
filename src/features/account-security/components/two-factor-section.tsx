/**
 * Two-factor sign-in for administrators: set it up with a QR code (or the secret typed in), confirm it with
 * a code, and keep the ten recovery codes shown once. When ADMIN_MFA requires it, the admin pages wait
 * until it is on.
 */
import { Badge, Button, Code, HStack, Input, List, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import type { TwoFactorSetup, totpCodeSchema } from '../../../domain/account-security-schemas.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver.ts';
import { useConfirmTwoFactor, useStartTwoFactor, useTwoFactor } from '../api/two-factor.ts';
import { QrCode } from './qr-code.tsx';

const resolver = lazyZodResolver(() =>
  import('../../../domain/account-security-schemas.ts').then((schemas) => schemas.totpCodeSchema),
);

function ConfirmSetUp({ setUp, onConfirmed }: { setUp: TwoFactorSetup; onConfirmed: (codes: string[]) => void }) {
  const confirm = useConfirmTwoFactor();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof totpCodeSchema>, unknown, z.output<typeof totpCodeSchema>>({
    resolver,
    defaultValues: { code: '' },
  });
  const onSubmit = handleSubmit(({ code }) =>
    confirm.mutate(code, {
      onSuccess: (answer) => onConfirmed(answer.recovery_codes),
      onError: (error) =>
        notify({
          title: 'Failed to turn on two-factor sign-in',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    }),
  );
  return (
    <Stack gap="4">
      <Text>Scan the QR code with your authenticator app, or type the secret in, then enter the code it shows.</Text>
      <QrCode value={setUp.uri} />
      <Text fontSize="sm">
        Secret: <Code data-testid="totp-secret">{setUp.secret}</Code>
      </Text>
      <FormStack onSubmit={onSubmit} noValidate aria-label="Confirm two-factor sign-in" maxW="xs">
        <FormField label="Code from the app" error={errors.code?.message}>
          <Input {...register('code')} inputMode="numeric" autoComplete="one-time-code" />
        </FormField>
        <Button
          type="submit"
          colorPalette="blue"
          alignSelf="flex-start"
          loading={confirm.isPending}
          loadingText="Checking..."
        >
          Turn on
        </Button>
      </FormStack>
    </Stack>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Stack gap="3" role="region" aria-label="Recovery codes">
      <Text fontWeight="medium">
        Two-factor sign-in is on. Save these recovery codes now: each signs you in once if you lose your phone, and they
        are not shown again.
      </Text>
      <List.Root ps="5">
        {codes.map((code) => (
          <List.Item key={code}>
            <Code>{code}</Code>
          </List.Item>
        ))}
      </List.Root>
      <Button alignSelf="flex-start" onClick={onDone}>
        I have saved them
      </Button>
    </Stack>
  );
}

export function TwoFactorSection() {
  const status = useTwoFactor();
  const start = useStartTwoFactor();
  const [setUp, setSetUp] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  if (status.isPending) return <Text color="fg.muted">Loading...</Text>;
  if (status.isError)
    return (
      <Text color="fg.error" role="alert">
        Error loading two-factor sign-in. Please try again later.
      </Text>
    );
  if (!status.data.available) return <Text color="fg.muted">Two-factor sign-in is for administrators.</Text>;
  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (setUp)
    return (
      <ConfirmSetUp
        setUp={setUp}
        onConfirmed={(recovery) => {
          setSetUp(null);
          setCodes(recovery);
        }}
      />
    );

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: setSetUp,
      onError: (error) =>
        notify({ title: 'Failed to start', description: errorMessage(error), variant: 'destructive' }),
    });
  return (
    <Stack gap="3">
      <HStack gap="2">
        <Text>Two-factor sign-in</Text>
        <Badge colorPalette={status.data.enabled ? 'green' : 'gray'}>{status.data.enabled ? 'On' : 'Off'}</Badge>
      </HStack>
      {status.data.enabled ? (
        <Text fontSize="sm" color="fg.muted">
          {status.data.recovery_codes_left} recovery codes left.
        </Text>
      ) : status.data.required ? (
        <Text fontSize="sm" color="fg.error">
          Administrators must turn it on before they can use the admin pages.
        </Text>
      ) : null}
      <Button
        alignSelf="flex-start"
        colorPalette="blue"
        variant={status.data.enabled ? 'outline' : 'solid'}
        loading={start.isPending}
        onClick={begin}
      >
        {status.data.enabled ? 'Set up again' : 'Set up two-factor sign-in'}
      </Button>
    </Stack>
  );
}

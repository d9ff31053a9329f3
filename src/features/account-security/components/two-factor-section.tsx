/**
 * Two-factor sign-in for administrators: prove it is the owner (the password, and a code of the current
 * second factor when one is on: what a stolen session lacks), set it up with a QR code (or the secret typed
 * in), confirm it with a code, and keep the ten recovery codes shown once. When ADMIN_MFA requires it, the
 * admin pages wait until it is on.
 */
import { Badge, Button, Code, HStack, Input, List, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type {
  TwoFactorProof,
  TwoFactorSetup,
  totpCodeSchema,
  twoFactorProofSchema,
} from '@/domain/account-security-schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatTime } from '@/lib/format.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { useConfirmTwoFactor, useStartTwoFactor, useTwoFactor } from '../api/two-factor.ts';
import { QrCode } from './qr-code.tsx';

const resolver = lazyZodResolver(() =>
  import('@/domain/account-security-schemas.ts').then((schemas) => schemas.totpCodeSchema),
);
const proofResolver = lazyZodResolver(() =>
  import('@/domain/account-security-schemas.ts').then((schemas) => schemas.twoFactorProofSchema),
);

/** The field for a code of the second factor that is on now (the authenticator's, or a recovery code). */
const CURRENT_CODE_LABEL = 'Code from your current authenticator app';

/** The owner's proof before a new secret is made: the password, and a current code when a factor is on. */
function ProveOwner({
  enabled,
  onStarted,
  onCancel,
}: {
  enabled: boolean;
  onStarted: (setUp: TwoFactorSetup, proof: TwoFactorProof) => void;
  onCancel: () => void;
}) {
  const start = useStartTwoFactor();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof twoFactorProofSchema>, unknown, z.output<typeof twoFactorProofSchema>>({
    resolver: proofResolver,
    defaultValues: { current_password: '', totp_code: '' },
  });
  const onSubmit = handleSubmit((proof) =>
    start.mutate(enabled ? proof : { current_password: proof.current_password }, {
      onSuccess: (setUp) => onStarted(setUp, proof),
      onError: (error) =>
        notify({ title: 'Failed to start', description: errorMessage(error), variant: 'destructive' }),
    }),
  );
  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Set up two-factor sign-in" maxW="sm">
      <Text>
        {enabled
          ? 'To replace your second factor, enter your password and a code from the app you use now.'
          : 'To set up two-factor sign-in, enter your password.'}
      </Text>
      <FormField label="Current password" error={errors.current_password?.message}>
        <Input {...register('current_password')} type="password" autoComplete="current-password" />
      </FormField>
      {enabled && (
        <FormField label={CURRENT_CODE_LABEL} error={errors.totp_code?.message}>
          <Input {...register('totp_code')} inputMode="numeric" autoComplete="one-time-code" />
        </FormField>
      )}
      <HStack gap="2">
        <Button type="submit" colorPalette="blue" loading={start.isPending} loadingText="Checking...">
          Continue
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </HStack>
    </FormStack>
  );
}

function ConfirmSetUp({
  setUp,
  proof,
  enabled,
  onConfirmed,
}: {
  setUp: TwoFactorSetup;
  proof: TwoFactorProof;
  enabled: boolean;
  onConfirmed: (codes: string[]) => void;
}) {
  const confirm = useConfirmTwoFactor();
  const [currentCode, setCurrentCode] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof totpCodeSchema>, unknown, z.output<typeof totpCodeSchema>>({
    resolver,
    defaultValues: { code: '' },
  });
  // The current factor's code that started the set-up has been used: a new one confirms it.
  const onSubmit = handleSubmit(({ code }) =>
    confirm.mutate(
      { code, current_password: proof.current_password, ...(enabled ? { totp_code: currentCode } : {}) },
      {
        onSuccess: (answer) => onConfirmed(answer.recovery_codes),
        onError: (error) =>
          notify({
            title: 'Failed to turn on two-factor sign-in',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    ),
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
        {enabled && (
          <FormField label={CURRENT_CODE_LABEL} helperText="A new code: the one you entered before has been used.">
            <Input
              value={currentCode}
              onChange={(event) => setCurrentCode(event.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
            />
          </FormField>
        )}
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
  const [proving, setProving] = useState(false);
  const [setUp, setSetUp] = useState<{ setUp: TwoFactorSetup; proof: TwoFactorProof } | null>(null);
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
        setUp={setUp.setUp}
        proof={setUp.proof}
        enabled={status.data.enabled}
        onConfirmed={(recovery) => {
          setSetUp(null);
          setCodes(recovery);
        }}
      />
    );
  if (proving)
    return (
      <ProveOwner
        enabled={status.data.enabled}
        onStarted={(started, proof) => {
          setProving(false);
          setSetUp({ setUp: started, proof });
        }}
        onCancel={() => setProving(false)}
      />
    );

  return (
    <Stack gap="3">
      <HStack gap="2">
        <Text>Two-factor sign-in</Text>
        <Badge colorPalette={status.data.enabled ? 'green' : 'gray'}>{status.data.enabled ? 'On' : 'Off'}</Badge>
      </HStack>
      {status.data.locked_until && (
        <Text fontSize="sm" color="fg.error" role="alert">
          Locked after 10 wrong codes until {formatTime(status.data.locked_until)}: until then only browsers you have
          signed in with can use a code.
        </Text>
      )}
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
        onClick={() => setProving(true)}
      >
        {status.data.enabled ? 'Set up again' : 'Set up two-factor sign-in'}
      </Button>
    </Stack>
  );
}

/**
 * The user's signed-in browsers: device, address, last use; this one marked. Any other one can be signed
 * out; "Sign out everywhere" ends them all, this one included, and goes to the sign-in page.
 */
import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router';
import { notify } from '@/components/ui/toaster.tsx';
import { paths } from '@/config/paths.ts';
import type { Session } from '@/domain/account-security-schemas.ts';
import { formatDateTime } from '@/domain/money.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useEndSession, useLogoutAll, useSessions } from '../api/sessions.ts';
import { deviceName } from '../lib/device-name.ts';

function SessionRow({ session }: { session: Session }) {
  const end = useEndSession();
  const name = deviceName(session.user_agent);
  return (
    <HStack as="li" justify="space-between" gap="3" py="2" borderBottomWidth="1px" flexWrap="wrap" aria-label={name}>
      <Stack gap="0">
        <HStack gap="2">
          <Text fontWeight="medium">{name}</Text>
          {session.current && <Badge colorPalette="green">This device</Badge>}
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          {session.ip ?? 'Unknown address'} · last seen {formatDateTime(session.last_seen_at)}
        </Text>
      </Stack>
      {!session.current && (
        <Button
          size="sm"
          variant="outline"
          loading={end.isPending}
          onClick={() =>
            end.mutate(session.id, {
              onSuccess: () => notify({ title: 'Signed out', description: `${name} is signed out.` }),
              onError: (error) =>
                notify({ title: 'Failed to sign out', description: errorMessage(error), variant: 'destructive' }),
            })
          }
        >
          Sign out
        </Button>
      )}
    </HStack>
  );
}

export function SessionList() {
  const sessions = useSessions();
  const logoutAll = useLogoutAll();
  const navigate = useNavigate();

  if (sessions.isPending) return <Text color="fg.muted">Loading your sessions...</Text>;
  if (sessions.isError)
    return (
      <Text color="fg.error" role="alert">
        Error loading your sessions. Please try again later.
      </Text>
    );
  return (
    <Stack gap="3">
      <Stack as="ul" gap="0" listStyleType="none" aria-label="Signed-in devices">
        {sessions.data.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </Stack>
      <Button
        alignSelf="flex-start"
        colorPalette="red"
        variant="outline"
        loading={logoutAll.isPending}
        onClick={() =>
          logoutAll.mutate(undefined, {
            onSuccess: () => {
              notify({ title: 'Signed out everywhere', description: 'Every session of your account has ended.' });
              navigate(paths.auth);
            },
            onError: (error) =>
              notify({ title: 'Failed to sign out', description: errorMessage(error), variant: 'destructive' }),
          })
        }
      >
        Sign out everywhere
      </Button>
    </Stack>
  );
}

import { Box, Menu, Portal, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router';
import type { User } from '@/domain/entities.ts';
import { notify } from '@/components/ui/toaster.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useLogout } from '@/lib/auth.ts';
import { UserMenuButton, type ControlStart } from './header-buttons.tsx';

/** Name, email, My Wallet, My Bets, Logout; plus Responsible gambling and Security. Loaded by header-controls.tsx. */
export function UserMenu({ user, start }: { user: User; start?: ControlStart }) {
  const navigate = useNavigate();
  const logout = useLogout();

  const onSelect = (value: string) => {
    if (value === 'wallet') navigate(paths.wallet);
    else if (value === 'bets') navigate(paths.myBets);
    else if (value === 'protection') navigate(paths.responsibleGambling);
    else if (value === 'security') navigate(paths.accountSecurity);
    else if (value === 'logout')
      logout.mutate(undefined, {
        onSuccess: () => {
          notify({ title: 'Logged out', description: 'You have been successfully logged out.' });
          navigate(paths.auth);
        },
        onError: (error) =>
          notify({ title: 'Logout failed', description: errorMessage(error), variant: 'destructive' }),
      });
  };

  return (
    <Menu.Root
      onSelect={(details) => onSelect(details.value)}
      positioning={{ placement: 'bottom-end' }}
      defaultOpen={start?.open}
    >
      <Menu.Trigger asChild>
        <UserMenuButton user={user} autoFocus={start?.focus} />
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="56">
            <Box px="2" py="1.5">
              <Text fontWeight="semibold">{user.name}</Text>
              <Text fontSize="sm" color="fg.muted">
                {user.email}
              </Text>
            </Box>
            <Menu.Separator />
            <Menu.Item value="wallet">My Wallet</Menu.Item>
            <Menu.Item value="bets">My Bets</Menu.Item>
            <Menu.Item value="protection">Responsible gambling</Menu.Item>
            <Menu.Item value="security">Security</Menu.Item>
            <Menu.Separator />
            <Menu.Item value="logout" color="fg.error">
              Logout
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/**
 * The back office's sidebar — Dashboard, Matches, Users, Transactions, Books and Settings (the house-risk
 * limits), a divider, the player links (Live Matches at /, My Bets, Wallet) and log out — with the role
 * as Administrator or Staff.
 * Below 768 px the sidebar sits above the page as a wrapping bar.
 */
import { Box, Button, Flex, Heading, Separator, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { notify } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useLogout, useUser } from '@/lib/auth.ts';
import { adminPaths, paths } from '@/config/paths.ts';
import { roleLabel } from '../shared/lib/labels.ts';

const adminLinks = [
  { label: 'Dashboard', to: adminPaths.dashboard, end: true },
  { label: 'Matches', to: adminPaths.matches },
  { label: 'Users', to: adminPaths.users },
  { label: 'Transactions', to: adminPaths.transactions },
  { label: 'Books', to: adminPaths.books },
  { label: 'Settings', to: adminPaths.settings },
];
const playerLinks = [
  { label: 'Live Matches', to: paths.home, end: true },
  { label: 'My Bets', to: paths.myBets },
  { label: 'Wallet', to: paths.wallet },
  // two-factor sign-in is set up there (with ADMIN_MFA=required, before any admin page answers)
  { label: 'Security', to: paths.accountSecurity },
];

function SidebarLink({ to, end, children }: { to: string; end?: boolean; children: ReactNode }) {
  return (
    <Button
      asChild
      variant="ghost"
      justifyContent="flex-start"
      size="sm"
      color="gray.100"
      _hover={{ bg: 'whiteAlpha.200' }}
      css={{ '&[aria-current=page]': { bg: 'blue.600', color: 'white' } }}
    >
      <NavLink to={to} end={end}>
        {children}
      </NavLink>
    </Button>
  );
}

export function AdminLayout({ children }: { children: ReactNode }) {
  const { data: user } = useUser();
  const logout = useLogout();
  const navigate = useNavigate();

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        notify({ title: 'Logged out', description: 'You have been successfully logged out.' });
        navigate(paths.auth);
      },
      onError: (error) => notify({ title: 'Logout failed', description: errorMessage(error), variant: 'destructive' }),
    });

  return (
    <Flex direction={{ base: 'column', md: 'row' }} minH="100dvh" bg="gray.50">
      <Box
        as="aside"
        bg="gray.900"
        color="white"
        w={{ base: 'full', md: '60' }}
        flexShrink={0}
        p="4"
        position={{ md: 'sticky' }}
        top="0"
        h={{ md: '100dvh' }}
        overflowY="auto"
      >
        <Heading size="md" mb="1">
          Admin Panel
        </Heading>
        {user && (
          <Text fontSize="sm" color="gray.400" mb="4">
            {user.name} · <span data-testid="admin-role">{roleLabel(user.role)}</span>
          </Text>
        )}
        <Stack as="nav" aria-label="Admin" gap="1" direction={{ base: 'row', md: 'column' }} wrap="wrap">
          {adminLinks.map((link) => (
            <SidebarLink key={link.to} to={link.to} end={link.end}>
              {link.label}
            </SidebarLink>
          ))}
          <Separator
            my={{ md: '3' }}
            borderColor="whiteAlpha.300"
            orientation={{ base: 'vertical', md: 'horizontal' }}
          />
          {playerLinks.map((link) => (
            <SidebarLink key={link.to} to={link.to} end={link.end}>
              {link.label}
            </SidebarLink>
          ))}
          <Button
            variant="ghost"
            justifyContent="flex-start"
            size="sm"
            color="red.300"
            _hover={{ bg: 'whiteAlpha.200' }}
            onClick={onLogout}
            loading={logout.isPending}
          >
            Log out
          </Button>
        </Stack>
      </Box>
      <Box as="main" flex="1" minW="0" p={{ base: '4', md: '8' }}>
        {children}
      </Box>
    </Flex>
  );
}

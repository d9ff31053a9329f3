import { Box, Button, Container, HStack, Link, Text } from '@chakra-ui/react';
import { NavLink, Link as RouterLink } from 'react-router';
import { AppIcon } from '@/components/ui/icons.tsx';
import { formatRupees } from '@/domain/money.ts';
import { APP_NAME } from '@/config/app.ts';
import { paths } from '@/config/paths.ts';
import { useUser } from '@/lib/auth.ts';
import { navItems } from './nav-items.ts';
import { RechargeControl, UserMenuControl } from './header-controls.tsx';
import { SessionClock } from './session-clock.tsx';

export function Header() {
  const { data: user } = useUser();
  return (
    <Box as="header" bg="blue.900" color="white" position="sticky" top="0" zIndex="sticky">
      <Container maxW="6xl" py="3">
        <HStack justify="space-between" gap="4">
          <Link asChild color="white" fontWeight="bold" fontSize="lg" gap="2" _hover={{ textDecoration: 'none' }}>
            <RouterLink to={paths.home} aria-label={`${APP_NAME} home`}>
              <AppIcon name="trophy" boxSize="6" color="yellow.300" />
              <Box as="span" display={{ base: 'none', sm: 'inline' }}>
                {APP_NAME}
              </Box>
            </RouterLink>
          </Link>
          <HStack as="nav" aria-label="Main" gap="1" display={{ base: 'none', md: 'flex' }}>
            {navItems.map((item) => (
              <Link
                key={item.to}
                asChild
                color="blue.100"
                px="3"
                py="2"
                rounded="md"
                _hover={{ bg: 'whiteAlpha.200', textDecoration: 'none' }}
                css={{ '&[aria-current=page]': { color: 'white', bg: 'whiteAlpha.300', fontWeight: 'semibold' } }}
              >
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </Link>
            ))}
          </HStack>
          {user ? (
            <HStack gap="2">
              <SessionClock />
              <Text
                as="span"
                bg="whiteAlpha.200"
                rounded="full"
                px="3"
                py="1"
                fontSize="sm"
                fontWeight="semibold"
                aria-label={`Balance ${formatRupees(user.wallet_balance)}`}
                data-testid="balance-chip"
              >
                {formatRupees(user.wallet_balance)}
              </Text>
              {user.pending_withdrawals > 0 && (
                // Part of the balance waits for an admin's approval: it can be neither bet nor withdrawn again.
                <Text
                  as="span"
                  fontSize="xs"
                  color="blue.100"
                  whiteSpace="nowrap"
                  title="Pending withdrawals"
                  data-testid="pending-withdrawals"
                >
                  {formatRupees(user.pending_withdrawals)} pending
                </Text>
              )}
              <RechargeControl />
              <UserMenuControl user={user} />
            </HStack>
          ) : (
            <Button asChild size="sm" colorPalette="green">
              <RouterLink to={paths.auth}>Sign In</RouterLink>
            </Button>
          )}
        </HStack>
      </Container>
    </Box>
  );
}

import { Box, Link, SimpleGrid, Text } from '@chakra-ui/react';
import { NavLink } from 'react-router';
import { AppIcon } from '@/components/ui/icons.tsx';
import { navItems } from './nav-items.ts';

/** Under 768 px the four links move to a bar at the bottom. */
export function BottomBar() {
  return (
    <Box
      as="nav"
      aria-label="Bottom navigation"
      display={{ base: 'block', md: 'none' }}
      position="fixed"
      bottom="0"
      insetX="0"
      bg="bg.panel"
      borderTopWidth="1px"
      zIndex="sticky"
      pb="env(safe-area-inset-bottom)"
    >
      <SimpleGrid columns={4}>
        {navItems.map((item) => (
          <Link
            key={item.to}
            asChild
            flexDirection="column"
            alignItems="center"
            gap="0.5"
            py="2"
            color="gray.700"
            _hover={{ textDecoration: 'none' }}
            css={{ '&[aria-current=page]': { color: 'blue.700', fontWeight: 'semibold' } }}
          >
            <NavLink to={item.to} end={item.end}>
              <AppIcon name={item.icon} boxSize="5" />
              <Text as="span" fontSize="xs">
                {item.label}
              </Text>
            </NavLink>
          </Link>
        ))}
      </SimpleGrid>
    </Box>
  );
}

import { Box, Flex } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { useUser } from '@/lib/auth.ts';
import { useBetResults } from '@/lib/use-bet-results.ts';
import { BottomBar } from './bottom-bar.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { RealityCheck } from './reality-check.tsx';

export function PlayerLayout() {
  useBetResults();
  const signedIn = Boolean(useUser().data);
  return (
    <Flex direction="column" minH="100dvh">
      <Header />
      <Box as="main" flex="1">
        <Outlet />
      </Box>
      <Footer />
      <BottomBar />
      {signedIn && <RealityCheck />}
    </Flex>
  );
}

/**
 * The service worker (vite-plugin-pwa, registerType 'prompt'): registered once the page has painted (this
 * module loads after the first paint). A new version waits until the player chooses to reload, so nothing
 * changes under them mid-bet: 'A new version is available' with Reload.
 */
import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { useRegisterSW } from 'virtual:pwa-register/react';

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <Box
      role="status"
      position="fixed"
      insetX="4"
      bottom={{ base: '20', md: '4' }}
      zIndex="toast"
      display="flex"
      justifyContent="center"
    >
      <HStack bg="blue.900" color="white" rounded="md" shadow="lg" px="4" py="3" gap="4">
        <Text>A new version is available</Text>
        <Button size="sm" colorPalette="yellow" onClick={() => void updateServiceWorker(true)}>
          Reload
        </Button>
      </HStack>
    </Box>
  );
}

/** Renders an admin component the way the admin app does: the player providers plus the admin system. */
import { ChakraProvider } from '@chakra-ui/react';
import type { ReactElement } from 'react';
import { renderWithProviders } from '@/test/render.tsx';
import { adminSystem } from '../shell/admin-system.ts';

export function renderAdmin(ui: ReactElement, options?: Parameters<typeof renderWithProviders>[1]) {
  return renderWithProviders(<ChakraProvider value={adminSystem}>{ui}</ChakraProvider>, options);
}

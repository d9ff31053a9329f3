/**
 * The look of the header's Recharge and user-menu buttons, shared by the real Dialog/Menu triggers and by
 * the stand-ins header-controls.tsx shows until those have loaded. Other props (the trigger's aria and
 * event props, a ref) pass through to the button.
 */
import { Box, Button, type ButtonProps } from '@chakra-ui/react';
import type { User } from '@/domain/entities.ts';
import { AppIcon } from '@/components/ui/icons.tsx';

export function RechargeButton(props: ButtonProps) {
  return (
    <Button size="sm" colorPalette="green" {...props}>
      Recharge
    </Button>
  );
}

export function UserMenuButton({ user, ...props }: ButtonProps & { user: User }) {
  return (
    <Button
      variant="ghost"
      size="sm"
      color="white"
      _hover={{ bg: 'whiteAlpha.200' }}
      aria-label={`User menu for ${user.name}`}
      {...props}
    >
      <AppIcon name="user" />
      <Box as="span" display={{ base: 'none', lg: 'inline' }}>
        {user.name}
      </Box>
    </Button>
  );
}

/** How a real control starts when it replaces its stand-in: open if the stand-in was clicked, focused if it had focus. */
export interface ControlStart {
  open: boolean;
  focus: boolean;
}

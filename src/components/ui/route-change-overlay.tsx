/** Spec §2.1: on every route change a full-page loading overlay shows for 800 ms. */
import { Center, Spinner } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

export const ROUTE_OVERLAY_MS = 800;

export function RouteChangeOverlay() {
  const { pathname } = useLocation();
  const [current, setCurrent] = useState({ pathname, visible: false });

  // A new path (not the first render) shows the overlay; adjusting state during render is React's
  // recommended way to react to a changed value without an extra effect pass.
  if (current.pathname !== pathname) setCurrent({ pathname, visible: true });

  useEffect(() => {
    if (!current.visible) return;
    const timer = setTimeout(() => setCurrent((state) => ({ ...state, visible: false })), ROUTE_OVERLAY_MS);
    return () => clearTimeout(timer);
  }, [current]);

  if (!current.visible) return null;
  return (
    <Center
      data-testid="route-overlay"
      position="fixed"
      inset="0"
      zIndex="overlay"
      bg="whiteAlpha.800"
      role="status"
      aria-label="Loading page"
    >
      <Spinner size="xl" color="blue.600" />
    </Center>
  );
}

/** On every route change a full-page loading overlay shows for 800 ms (not on the first load). */
import { Center, Spinner } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigation } from 'react-router';

export const ROUTE_OVERLAY_MS = 800;

export function RouteChangeOverlay() {
  // The path being navigated to while its chunk and reads load, then the current one: the overlay shows
  // from the click, not only once the new page is ready.
  const navigating = useNavigation().location;
  const current = useLocation();
  const { pathname } = navigating ?? current;
  const [shown, setShown] = useState({ pathname, visible: false });

  // A new path (not the first render) shows the overlay; adjusting state during render is React's
  // recommended way to react to a changed value without an extra effect pass.
  if (shown.pathname !== pathname) setShown({ pathname, visible: true });

  useEffect(() => {
    if (!shown.visible) return;
    const timer = setTimeout(() => setShown((state) => ({ ...state, visible: false })), ROUTE_OVERLAY_MS);
    return () => clearTimeout(timer);
  }, [shown]);

  if (!shown.visible) return null;
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

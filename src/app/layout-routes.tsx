/**
 * The layout routes of the route table: the page frame with the route-change overlay, the player's header
 * and footer, and the guards. Part of the app shell chunk (vite.config.ts), which index.html preloads, so
 * the router's lazy import of this module costs no request of its own.
 */
import { Outlet } from 'react-router';
import { PlayerLayout } from './layouts/player-layout.tsx';
import { RouteChangeOverlay } from './layouts/route-change-overlay.tsx';
import { RequireAuth } from './require-auth.tsx';

export { PlayerLayout };

export function AppLayout() {
  return (
    <>
      <RouteChangeOverlay />
      <Outlet />
    </>
  );
}

export function RequirePlayer() {
  return <RequireAuth />;
}

export function RequireAdmin() {
  return <RequireAuth adminOnly />;
}

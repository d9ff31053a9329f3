/**
 * The layout routes of the route table: the page frame (offline banner, route-change overlay, the service
 * worker's update prompt), the player's header and footer, and the guards. Part of the app shell chunk
 * (vite.config.ts), which index.html preloads, so the router's lazy import of this module costs no request
 * of its own.
 */
import { Outlet } from 'react-router';
import { deferredModule, useDeferredModule } from '../components/ui/deferred-module.ts';
import { OfflineBanner } from '../components/ui/offline.tsx';
import { PlayerLayout } from './layouts/player-layout.tsx';
import { RouteChangeOverlay } from './layouts/route-change-overlay.tsx';
import { RequireAuth } from './require-auth.tsx';

export { PlayerLayout };

// the service worker's registration and update prompt: after the first paint, never in its way
const updatePrompt = deferredModule(() => import('./layouts/update-prompt.tsx'));

export function AppLayout() {
  const prompt = useDeferredModule(updatePrompt);
  return (
    <>
      <OfflineBanner />
      <RouteChangeOverlay />
      <Outlet />
      {prompt && <prompt.UpdatePrompt />}
    </>
  );
}

export function RequirePlayer() {
  return <RequireAuth />;
}

export function RequireAdmin() {
  return <RequireAuth adminOnly />;
}

/**
 * The guard: a spinner while the current user loads, /auth when nobody is signed in, and /
 * for a non-admin on an admin-only route. Offline before the user could load (the app opened without a
 * network) the page shows as it can: its reads and actions wait for the connection, and the check runs then.
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/ui/page-spinner.tsx';
import { paths } from '../config/paths.ts';
import { useUser } from '../lib/auth.ts';
import { useShownWithoutRead } from '../lib/use-online.ts';

export function RequireAuth({ adminOnly = false }: { adminOnly?: boolean }) {
  const { data: user, isPending, fetchStatus } = useUser();
  const location = useLocation();
  const offline = useShownWithoutRead(isPending && fetchStatus === 'paused');
  if (isPending) return offline ? <Outlet /> : <PageSpinner label="Loading your account" />;
  // /auth sends the user back here after signing in.
  if (!user)
    return (
      <Navigate to={paths.auth} replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />
    );
  if (adminOnly && user.role !== 'admin') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}

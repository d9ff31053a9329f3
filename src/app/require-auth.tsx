/**
 * The guard: a spinner while the current user loads, /auth when nobody is signed in, and /
 * for a non-admin on an admin-only route.
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/ui/page-spinner.tsx';
import { paths } from '../config/paths.ts';
import { useUser } from '../lib/auth.ts';

export function RequireAuth({ adminOnly = false }: { adminOnly?: boolean }) {
  const { data: user, isPending } = useUser();
  const location = useLocation();
  if (isPending) return <PageSpinner label="Loading your account" />;
  // /auth sends the user back here after signing in.
  if (!user) return <Navigate to={paths.auth} replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  if (adminOnly && user.role !== 'admin') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}

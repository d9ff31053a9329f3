/**
 * The lazy route chunks, shared by the router and boot.ts. A route whose chunk is already in (boot.ts
 * preloads the current one) renders at once instead of suspending on React.lazy for a tick, so the
 * first paint is the page itself rather than the layout's spinner.
 */
import { lazy, type ComponentType } from 'react';

type Loader = () => Promise<Record<string, unknown>>;

export const routeModules = {
  home: () => import('../features/home/routes/home.tsx'),
  auth: () => import('../features/auth/routes/auth.tsx'),
  liveMatch: () => import('../features/matches/routes/live-match.tsx'),
  myBets: () => import('../features/bets/routes/my-bets.tsx'),
  wallet: () => import('../features/wallet/routes/wallet.tsx'),
  responsibleGambling: () => import('../features/protection/routes/responsible-gambling.tsx'),
  accountSecurity: () => import('../features/account-security/routes/account-security.tsx'),
  notFound: () => import('../features/misc/routes/not-found.tsx'),
} satisfies Record<string, Loader>;

const loaded = new Map<Loader, Record<string, unknown>>();

/** Loads a route chunk and remembers it for lazyRoute. */
export function loadRoute(load: Loader): Promise<Record<string, unknown>> {
  return load().then((module) => {
    loaded.set(load, module);
    return module;
  });
}

/** React.lazy for a named export, skipping the suspension when the chunk is already loaded. */
export function lazyRoute<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  const Lazy = lazy(() => loadRoute(load).then((module) => ({ default: module[name] as ComponentType })));
  return function LazyRoute() {
    const Component = (loaded.get(load)?.[name] as ComponentType | undefined) ?? Lazy;
    return <Component />;
  };
}

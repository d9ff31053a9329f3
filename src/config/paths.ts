/** The route table of spec §2.1: every link in the app is built from here. */
export const paths = {
  auth: '/auth',
  home: '/',
  matches: '/matches',
  liveMatch: (id: number | string) => `/live/${id}`,
  myBets: '/my-bets',
  wallet: '/wallet',
  responsibleGambling: '/responsible-gambling',
  accountSecurity: '/account/security',
  admin: '/admin',
} as const;

/** Router patterns of the same table. */
export const routePatterns = {
  auth: '/auth',
  home: '/',
  matches: '/matches',
  liveMatch: '/live/:id',
  myBets: '/my-bets',
  wallet: '/wallet',
  responsibleGambling: '/responsible-gambling',
  accountSecurity: '/account/security',
  admin: '/admin/*',
  notFound: '*',
} as const;

/** Width from which the desktop header replaces the bottom bar (spec §2.7). */
export const MOBILE_BREAKPOINT_PX = 768;

/**
 * Every path of the app, for links. The route table (src/app/router.tsx) builds its patterns from the same
 * builders (`paths.liveMatch(':id')` is the pattern '/live/:id'), so a path is written once.
 */
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

/** The back office's paths. */
export const adminPaths = {
  dashboard: '/admin',
  matches: '/admin/matches',
  newMatch: '/admin/matches/new',
  match: (id: number | string) => `/admin/matches/${id}`,
  users: '/admin/users',
  user: (id: number | string) => `/admin/users/${id}`,
  userWallet: (id: number | string) => `/admin/users/${id}/wallet`,
  transactions: '/admin/transactions',
  settings: '/admin/settings',
  books: '/admin/books',
  /** e.g. transactionsFiltered('withdrawal', 'pending') → '/admin/transactions?type=withdrawal&status=pending' */
  transactionsFiltered: (type?: string, status?: string) => {
    const query = new URLSearchParams();
    if (type) query.set('type', type);
    if (status) query.set('status', status);
    const text = query.toString();
    return text ? `/admin/transactions?${text}` : '/admin/transactions';
  },
} as const;

/** Width from which the desktop header replaces the bottom bar. */
export const MOBILE_BREAKPOINT_PX = 768;

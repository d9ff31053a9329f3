/** The back office's routes (spec §2.1), built in one place. */
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
  /** e.g. transactionsFiltered('withdrawal', 'pending') → '/admin/transactions?type=withdrawal&status=pending' */
  transactionsFiltered: (type?: string, status?: string) => {
    const query = new URLSearchParams();
    if (type) query.set('type', type);
    if (status) query.set('status', status);
    const text = query.toString();
    return text ? `/admin/transactions?${text}` : '/admin/transactions';
  },
} as const;

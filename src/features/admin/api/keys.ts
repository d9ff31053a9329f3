/**
 * Query keys of the back office. Everything admin sits under 'admin', so one prefix refreshes a whole
 * area; the player caches ('matches', 'bets', 'transactions', 'user') are invalidated too where an admin
 * write changes what a player sees.
 */
export const adminKeys = {
  all: ['admin'] as const,
  dashboard: ['admin', 'dashboard'] as const,
  teams: ['admin', 'teams'] as const,
  matches: ['admin', 'matches'] as const,
  matchList: ['admin', 'matches', 'list'] as const,
  match: (id: number) => ['admin', 'matches', 'detail', id] as const,
  matchBets: (id: number) => ['admin', 'matches', 'detail', id, 'bets'] as const,
  matchRisk: (id: number) => ['admin', 'matches', 'detail', id, 'risk'] as const,
  users: ['admin', 'users'] as const,
  userList: ['admin', 'users', 'list'] as const,
  userCounts: ['admin', 'users', 'counts'] as const,
  user: (id: number) => ['admin', 'users', 'detail', id] as const,
  userTransactions: (id: number) => ['admin', 'users', 'detail', id, 'transactions'] as const,
  userBets: (id: number) => ['admin', 'users', 'detail', id, 'bets'] as const,
  userBankAccounts: (id: number) => ['admin', 'users', 'detail', id, 'bank-accounts'] as const,
  transactions: ['admin', 'transactions'] as const,
  transactionCounts: ['admin', 'transactions', 'counts'] as const,
  settings: ['admin', 'settings'] as const,
};

/** GET /api/wallet/transactions?userId= sits under the player's 'transactions' key. */
export const walletTransactionsKey = (userId: number) => ['transactions', { userId }] as const;

/**
 * The JSON answers only the back office reads (edge-functions/api/routes/admin): the tabs' counts, the
 * dashboard statistics and the audit log. The records they list (users, matches, bets, transactions) are
 * entities.ts's.
 */
import { z } from 'zod';
import { MATCH_STATUSES, TRANSACTION_STATUSES, TRANSACTION_TYPES, USER_STATUSES } from './limits.ts';
import { timestamp, transactionEntity } from './entities.ts';

/** GET /api/admin/users/counts: the counts of the users tabs. */
export const userCountsEntity = z.object({
  all: z.number().int(),
  active: z.number().int(),
  suspended: z.number().int(),
  banned: z.number().int(),
});

/** GET /api/admin/transactions/counts: the counts of the pending tabs. */
export const transactionCountsEntity = z.object({
  pending_deposits: z.number().int(),
  pending_withdrawals: z.number().int(),
  /** admin credits waiting for a second admin's approval */
  pending_adjustments: z.number().int(),
});

/**
 * PATCH /api/admin/transactions/{id}/approve, 202: a deposit no gateway confirmed or a withdrawal of at least
 * adjustment_review_amount, approved once: it stays pending until another admin approves it. The message
 * names the threshold: 'A second administrator must approve deposits of ₹50,000 or more'.
 */
export const firstApprovalEntity = z.object({ message: z.string(), transaction: transactionEntity });
export type FirstApproval = z.infer<typeof firstApprovalEntity>;

/** Why two accounts are linked: a shared bank account or phone number, or a device both signed in with. */
export const LINK_REASONS = ['bank_account', 'phone', 'device'] as const;
export type LinkReason = (typeof LINK_REASONS)[number];

/**
 * GET /api/admin/users/{id}/linked: an account linked to the user (one person, one account), with each reason
 * and what is shared (the bank account's IFSC and last digits, the phone number, when the device was last
 * used), and its running time-out or self-exclusion, if any.
 */
export const linkedAccountEntity = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  status: z.enum(USER_STATUSES),
  links: z.array(z.object({ reason: z.enum(LINK_REASONS), detail: z.string() })),
  exclusion: z
    .object({
      kind: z.enum(['timeout', 'self_exclusion']),
      ends_at: timestamp,
      /** the user whose page this is is bound by it already */
      binds_this_user: z.boolean(),
    })
    .nullable(),
});
export type LinkedAccount = z.infer<typeof linkedAccountEntity>;

/** The dashboard statistics. GET /api/admin/dashboard/stats. activeUsers, totalBets and totalTransactionVolume count the last 7 days. */
export const dashboardStatsEntity = z.object({
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
  totalMatches: z.number().int(),
  liveMatches: z.number().int(),
  upcomingMatches: z.number().int(),
  completedMatches: z.number().int(),
  totalBets: z.number().int(),
  totalTransactionVolume: z.number().int(),
  pendingDeposits: z.number().int(),
  pendingWithdrawals: z.number().int(),
  recentMatches: z.array(
    z.object({
      id: z.number().int(),
      team1_name: z.string(),
      team2_name: z.string(),
      start_time: timestamp,
      status: z.enum(MATCH_STATUSES),
    }),
  ),
  recentTransactions: z.array(
    z.object({
      id: z.number().int(),
      user_id: z.number().int(),
      type: z.enum(TRANSACTION_TYPES),
      amount: z.number().int(),
      status: z.enum(TRANSACTION_STATUSES),
    }),
  ),
});

/** GET /api/admin/audit-log: every admin write, newest first. */
export const auditLogEntity = z.object({
  id: z.number().int(),
  admin_id: z.number().int().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: timestamp,
});

export type DashboardStats = z.infer<typeof dashboardStatsEntity>;
export type AuditLogEntry = z.infer<typeof auditLogEntity>;
export type UserCounts = z.infer<typeof userCountsEntity>;
export type TransactionCounts = z.infer<typeof transactionCountsEntity>;

/** Display helpers on top of src/domain/money.ts: en-IN dates and times, with a text for a missing one. */
import { formatRupees } from '../domain/money.ts';

function validDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '21 Nov 2026', or 'Date not available'. */
export function formatDate(value: string | null | undefined): string {
  const date = validDate(value);
  return date
    ? date.toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' })
    : 'Date not available';
}

/** '7:30 pm', or 'Time TBD'. */
export function formatTime(value: string | null | undefined): string {
  const date = validDate(value);
  return date ? date.toLocaleTimeString('en-IN', { hour: 'numeric', minute: '2-digit' }) : 'Time TBD';
}

/** A signed ledger amount: '+₹1,000' or '-₹500'. */
export function formatSignedRupees(amount: number): string {
  return `${amount >= 0 ? '+' : '-'}${formatRupees(Math.abs(amount))}`;
}

/** ' (₹500 held for pending withdrawals)' beside an available balance, or '' when none is pending. */
export function heldForWithdrawals(pending: number): string {
  return pending > 0 ? ` (${formatRupees(pending)} held for pending withdrawals)` : '';
}

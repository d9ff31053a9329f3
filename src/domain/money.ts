/** Rupee amounts and dates as the app shows them: ₹ with Indian digit grouping, dates in en-IN. */
const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

/** 150000 → '₹1,50,000'. */
export function formatRupees(amount: number): string {
  return rupees.format(amount);
}

/** A date-time in en-IN, or `fallback` ('Date not available' / 'Time TBD') when the value is no date. */
export function formatDateTime(value: string | null | undefined, fallback = 'Date not available'): string {
  if (!value) return fallback;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return fallback;
  return date.toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
}

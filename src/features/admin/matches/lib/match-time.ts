/** The create-match calendar keeps the date and the time of day apart; these join them (local time). */

/** 'HH:mm' of a date in local time. */
export function timeOfDay(date: Date): string {
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** '2026-11-21' + '19:30' → the ISO instant of that local date and time, or null when either is invalid. */
export function combineDateAndTime(date: string, time: string): string | null {
  const dateMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const timeMatch = /^(\d{2}):(\d{2})$/.exec(time);
  if (!dateMatch || !timeMatch) return null;
  const value = new Date(
    Number(dateMatch[1]),
    Number(dateMatch[2]) - 1,
    Number(dateMatch[3]),
    Number(timeMatch[1]),
    Number(timeMatch[2]),
  );
  return Number.isNaN(value.getTime()) ? null : value.toISOString();
}

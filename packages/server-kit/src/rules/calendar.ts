// Calendar dates in a time zone (R-11's "calendar days", installment due dates), from the Intl database.

/** One formatter per zone: making an Intl.DateTimeFormat costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of `instant` as a wall calendar in `timeZone` shows it. */
export function calendarDate(instant: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00.000Z`) / 86_400_000;

/** Whole calendar days from `from` to `to` in `timeZone` (0 on the same day, negative backwards). */
export function calendarDaysBetween(from: Date, to: Date, timeZone: string): number {
  return dayNumber(calendarDate(to, timeZone)) - dayNumber(calendarDate(from, timeZone));
}

/** `date` (`YYYY-MM-DD`) plus `months`, the day clamped to the last of a shorter month (Jan 31 + 1 = Feb 28). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(targetYear, 4)}-${pad(targetMonth + 1)}-${pad(Math.min(day, lastDay))}`;
}

/** Time periods (hours) offered by the overview; spec §7: `from` is now minus N hours, default 1 hour. */
export const PERIOD_OPTIONS = [1, 3, 6, 12, 24, 72, 168] as const;
export const DEFAULT_PERIOD = 1;
/** Stats are kept 30 days by default; a hand-edited URL may ask for anything up to that. */
export const MAX_PERIOD = 720;

export type OverviewView = 'grid' | 'list';
export const OVERVIEW_VIEWS: readonly OverviewView[] = ['grid', 'list'];
/** The view while the essential settings (default_network_view) are not known. */
export const DEFAULT_VIEW: OverviewView = 'grid';

export interface OverviewSearch {
  period?: number;
  view?: OverviewView;
}

/** A whole number of hours in 1..MAX_PERIOD, or undefined (the URL value is then dropped). */
export function parsePeriod(raw: unknown): number | undefined {
  const value = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  return value >= 1 && value <= MAX_PERIOD ? value : undefined;
}

/** Router `validateSearch`: unknown or invalid values fall back to their defaults instead of breaking the page. */
export function parseOverviewSearch(raw: Record<string, unknown>): OverviewSearch {
  const out: OverviewSearch = {};
  const period = parsePeriod(raw.period);
  if (period !== undefined && period !== DEFAULT_PERIOD) out.period = period;
  // Both views stay in the URL: which one is the default is a setting (default_network_view).
  if (raw.view === 'list' || raw.view === 'grid') out.view = raw.view;
  return out;
}

/** The options shown in the period picker: the presets plus a non-preset value taken from the URL. */
export function periodChoices(current: number): number[] {
  const choices: number[] = [...PERIOD_OPTIONS];
  if (!choices.includes(current)) choices.push(current);
  return choices.sort((a, b) => a - b);
}

/** `from` for the stats calls: a UTC ISO timestamp of `now` minus `hours`, to the whole minute so query keys stay stable. */
export function fromForPeriod(hours: number, now: number = Date.now()): string {
  const minute = Math.floor(now / 60_000) * 60_000;
  return new Date(minute - hours * 3_600_000).toISOString();
}

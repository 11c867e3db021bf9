import type { Language } from './languages';

/** Spec §1: date and number formatting follow the chosen language. */
export function formatDate(language: Language, iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(date);
}

export function formatNumber(language: Language, value: number): string {
  return new Intl.NumberFormat(language).format(value);
}

export function formatDateTime(language: Language, iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

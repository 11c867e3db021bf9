import { isMailLocale, type MailLocale } from './mail.templates.js';

/**
 * The language of a mail to `user` (docs/mail.md): the user's stored language (the console's
 * language they chose or were given), else `fallback` (the language of the request that causes
 * the mail, e.g. the console of the admin or of the person asking for a reset), else English.
 */
export function mailLocaleOf(user: { language: string | null }, fallback?: string | null): MailLocale {
  if (isMailLocale(user.language)) return user.language;
  return isMailLocale(fallback) ? fallback : 'en';
}

import { type Catalogue, en, type Message, type MessageKey } from './en';
import { ko } from './ko';
import type { Language } from './languages';
import { pl } from './pl';

export const CATALOGUES: Record<Language, Catalogue> = { en, ko, pl };

export type TranslateParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: TranslateParams) => string;

export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(en, key);

export function interpolate(template: string, params?: TranslateParams): string {
  if (!params) return template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : match));
}

const pluralRules = new Map<Language, Intl.PluralRules>();
const numberFormats = new Map<Language, Intl.NumberFormat>();

function cached<T>(map: Map<Language, T>, language: Language, make: () => T): T {
  let value = map.get(language);
  if (!value) {
    value = make();
    map.set(language, value);
  }
  return value;
}

/** The plural category of `count` in `language` (`one`, `few`, `many`, `other`…). */
export function pluralCategory(language: Language, count: number): Intl.LDMLPluralRule {
  return cached(pluralRules, language, () => new Intl.PluralRules(language)).select(count);
}

function pickForm(language: Language, message: Message, count: unknown): string {
  if (typeof message === 'string') return message;
  if (typeof count !== 'number') return message.other;
  return message[pluralCategory(language, count)] ?? message.other;
}

/**
 * The message for `key` in `language`. A numeric `count` chooses the plural form and is written
 * with the language's number format (so pass the number, not a formatted string).
 */
export function translate(language: Language, key: MessageKey, params?: TranslateParams): string {
  const own = CATALOGUES[language][key] as Message;
  const message = own && (typeof own !== 'string' || own.trim() !== '') ? own : (en[key] as Message);
  const count = params?.count;
  const template = pickForm(language, message, count);
  if (typeof count !== 'number') return interpolate(template, params);
  const formatted = cached(numberFormats, language, () => new Intl.NumberFormat(language)).format(count);
  return interpolate(template, { ...params, count: formatted });
}

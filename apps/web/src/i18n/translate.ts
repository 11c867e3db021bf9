import { type Catalogue, en, type MessageKey } from './en';
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

export function translate(language: Language, key: MessageKey, params?: TranslateParams): string {
  const template = CATALOGUES[language][key] || en[key];
  return interpolate(template, params);
}

/** TOTP and email codes have 6 digits (spec §5, §9). */
export const CODE_LENGTH = 6;

/**
 * What a typed or pasted value leaves in a 6-digit code field: its digits only, at most six
 * ("123 456", "123-456" and "Code: 123456" from an email all give "123456").
 */
export function normalizeCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

export const isCompleteCode = (code: string): boolean => /^\d{6}$/.test(code);

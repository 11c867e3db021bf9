/** `?token=` of the public enrollment and password reset pages (a link's one-time token). */
export function validateTokenSearch(search: Record<string, unknown>): { token?: string } {
  const token = typeof search.token === 'string' ? search.token.trim() : '';
  return token ? { token } : {};
}

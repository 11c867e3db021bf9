import type { Configuration } from 'oidc-provider';

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The page a browser sees when an authorization request cannot go back to the app (unknown or
 * disabled app, unregistered redirect URI): the error code and its description, nothing else.
 */
export const renderError: NonNullable<Configuration['renderError']> = async (ctx, out) => {
  ctx.type = 'html';
  const error = escapeHtml(String(out.error ?? 'server_error'));
  const description = out.error_description ? escapeHtml(String(out.error_description)) : '';
  ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Palisade: sign-in failed</title></head><body><main><h1>The app's sign-in request was refused</h1><p><code>${error}</code></p><p>${description}</p><p>Go back to the app and try again, or ask your administrator.</p></main></body></html>`;
};

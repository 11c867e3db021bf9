import { ApiError } from '@palisade/api-client';
import type { WebauthnSignInBody } from '@palisade/contracts';
import { type AuthenticationResponseJSON, type RegistrationResponseJSON, WebAuthnError } from '@simplewebauthn/browser';
import type { Translate } from '@/i18n/translate';
import { problemMessage } from '@/lib/problem-message';

/**
 * A failed security key step: the API's own problem, a key the browser recognises as registered
 * already (the server lists the user's keys as excluded) as 'Key is already registered', any other
 * browser refusal (cancelled, timed out, no key) as 'Failed to read key. Please try again.'.
 */
export function securityKeyErrorMessage(t: Translate, error: unknown): string {
  if (error instanceof ApiError) return problemMessage(t, error);
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return t('error.mfa.key_registered');
  return t('error.mfa.key_unreadable');
}

/** The browser's credential JSON as the API contract types it (a loose object the server checks). */
export const asCredentialResponse = (
  credential: RegistrationResponseJSON | AuthenticationResponseJSON,
): WebauthnSignInBody['response'] => ({
  ...credential,
  response: { ...credential.response },
});

import { ApiError } from '@palisade/api-client';
import { WebAuthnError } from '@simplewebauthn/browser';
import { describe, expect, it } from 'vitest';
import { translate } from '@/i18n/translate';
import { securityKeyErrorMessage } from './security-keys';

const t = (key: Parameters<typeof translate>[1]) => translate('en', key);

describe('securityKeyErrorMessage', () => {
  it('says the key is registered already when the browser refuses an excluded key', () => {
    const error = new WebAuthnError({
      message: 'x',
      code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
      cause: new Error('InvalidStateError'),
    });
    expect(securityKeyErrorMessage(t, error)).toBe('Key is already registered');
  });

  it('any other browser failure (cancelled, timed out) is "Failed to read key. Please try again."', () => {
    expect(securityKeyErrorMessage(t, new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'))).toBe(
      'Failed to read key. Please try again.',
    );
  });

  it('an API problem keeps its own message', () => {
    const error = new ApiError(409, { code: 'mfa.key_registered' });
    expect(securityKeyErrorMessage(t, error)).toBe('Key is already registered');
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UnavailableSettings } from './UnavailableSettings';

describe('Settings › OpenID (an external provider for sign-in)', () => {
  it('says plainly that signing in through an external provider is not available, and points to OpenID apps for the provider Palisade is', () => {
    render(<UnavailableSettings tab="openid" />);
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('Not available in this release.');
    expect(note.textContent).toContain('through an external OpenID Connect provider');
    expect(note.textContent).toContain('see OpenID apps');
  });
});

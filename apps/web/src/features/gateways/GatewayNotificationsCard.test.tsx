import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GatewayNotificationsCard } from './GatewayNotificationsCard';

describe('GatewayNotificationsCard', () => {
  it('explains that SMTP comes first and keeps every control disabled', () => {
    render(<GatewayNotificationsCard />);
    expect(screen.getByText(/SMTP is not configured yet/)).toBeTruthy();
    for (const name of ['Disconnect notifications', 'Inactivity threshold (minutes)', 'Reconnect notifications']) {
      expect((screen.getByLabelText(name) as HTMLInputElement).disabled, name).toBe(true);
    }
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

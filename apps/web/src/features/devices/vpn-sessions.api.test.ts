import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { activeSession, vpnSessionsQueryOptions } from './vpn-sessions.api';

const session = (id: number, ended_at: string | null) => ({
  id,
  device_id: 3,
  device_name: 'laptop',
  location_id: 7,
  location_name: 'Secure',
  started_at: '2026-11-24T10:00:00.000Z',
  last_handshake: null,
  ended_at,
  end_reason: ended_at ? 'disconnected' : null,
});

describe('activeSession', () => {
  it('finds the active session in the list as the API client delivers it (null fields dropped)', async () => {
    setFetchHandler(() => jsonResponse(200, [session(2, null), session(1, '2026-11-24T09:00:00.000Z')]));
    const sessions = await new QueryClient().fetchQuery(vpnSessionsQueryOptions);
    expect(activeSession(sessions, 3, 7)?.id).toBe(2);
    expect(activeSession(sessions, 3, 8)).toBeUndefined();
    expect(activeSession(sessions, 4, 7)).toBeUndefined();
  });

  it('an ended session is not active', async () => {
    setFetchHandler(() => jsonResponse(200, [session(1, '2026-11-24T09:00:00.000Z')]));
    expect(activeSession(await new QueryClient().fetchQuery(vpnSessionsQueryOptions), 3, 7)).toBeUndefined();
  });
});

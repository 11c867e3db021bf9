import { unwrap } from '@palisade/api-client';
import type { DesktopActivation } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** POST /user/{username}/start_desktop: a one-time activation token and URL for a client. */
export const useStartDesktop = () =>
  useMutation({
    mutationFn: async ({ username }: { username: string }): Promise<DesktopActivation> =>
      unwrap(api.POST('/api/v1/user/{username}/start_desktop', { params: { path: { username } }, body: {} })),
  });

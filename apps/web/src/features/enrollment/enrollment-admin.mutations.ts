import { unwrap } from '@palisade/api-client';
import type { EnrollmentStarted, StartEnrollmentBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { userKeys } from '@/features/users/users.queries';
import { api } from '@/lib/api';

const path = (username: string) => ({ params: { path: { username } } });

/** POST /user/{username}/start_enrollment: mails the link, or answers it once for the admin to deliver. */
export const useStartEnrollment = () =>
  useMutation({
    mutationFn: async ({ username, body }: { username: string; body: StartEnrollmentBody }): Promise<EnrollmentStarted> =>
      unwrap(api.POST('/api/v1/user/{username}/start_enrollment', { ...path(username), body })),
    meta: { invalidate: [userKeys.lists()] },
  });

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useToastStore } from '@/components/toast-store';
import { type UpdateInfo, useUpdatesStore } from '@/features/app/updates-store';
import { useTranslation } from '@/i18n/use-translation';
import { UPDATE_TOAST_ID, updateToastFor } from './update-toast';
import { UpdateModal } from './UpdateModal';
import { updateQueryOptions } from './updates.queries';

/**
 * Spec §2/§4/§6: for admins, checks for a new version and shows the update toast unless that
 * version was dismissed; 'more' opens the update modal and removes the toast, 'dismiss' stores the
 * version and time (updates-store). Mounted once, in the signed-in shell.
 */
export function UpdateNotice({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  useQuery({ ...updateQueryOptions, enabled: isAdmin });
  const storedUpdate = useUpdatesStore((s) => s.update);
  const dismissal = useUpdatesStore((s) => s.dismissal);
  const update = isAdmin ? storedUpdate : undefined;
  const [closedVersion, setClosedVersion] = useState<string>();
  const [details, setDetails] = useState<UpdateInfo>();

  useEffect(() => {
    const toast = updateToastFor({
      update,
      dismissal,
      closedVersion,
      t,
      onMore: () => {
        setClosedVersion(update?.version);
        setDetails(update);
      },
      onDismiss: () => useUpdatesStore.getState().dismiss(),
    });
    if (toast) useToastStore.getState().push(toast);
    else useToastStore.getState().dismiss(UPDATE_TOAST_ID);
  }, [update, dismissal, closedVersion, t]);

  // Leaving the signed-in shell (logout) takes the toast along.
  useEffect(() => () => useToastStore.getState().dismiss(UPDATE_TOAST_ID), []);

  return <UpdateModal update={details} onClose={() => setDetails(undefined)} />;
}

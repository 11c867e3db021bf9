import type { Toast, ToastAction } from '@/components/toast-store';
import type { Translate } from '@/i18n/translate';
import { isUpdateToastDue, type UpdateDismissal, type UpdateInfo } from '@/features/app/updates-store';

/** The one update toast (spec §4: only one exists at a time; a newer one replaces it). */
export const UPDATE_TOAST_ID = 'update-available';

export interface UpdateToastInput {
  update: UpdateInfo | undefined;
  dismissal: UpdateDismissal | undefined;
  /** The version whose toast 'more' removed in this page (not persisted: only the dismissal is). */
  closedVersion: string | undefined;
  t: Translate;
  onMore: () => void;
  onDismiss: () => void;
}

/** Spec §2/§4: the toast to show, or undefined when none is due. */
export function updateToastFor({ update, dismissal, closedVersion, t, onMore, onDismiss }: UpdateToastInput): Toast | undefined {
  if (!update || !isUpdateToastDue({ update, dismissal }) || closedVersion === update.version) return undefined;
  const actions: ToastAction[] = [
    { label: t('updates.releaseNotes'), href: update.release_notes_url },
    { label: t('updates.more'), onClick: onMore },
    { label: t('updates.dismiss'), onClick: onDismiss },
  ];
  return {
    id: UPDATE_TOAST_ID,
    kind: update.critical ? 'warning' : 'info',
    message: t('updates.toast', { version: update.version }),
    ...(update.critical ? { subMessage: t('updates.critical') } : {}),
    actions,
  };
}

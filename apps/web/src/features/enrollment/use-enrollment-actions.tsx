import type { User } from '@palisade/contracts';
import { type ReactNode, useState } from 'react';
import { useModuleEnabled } from '@/features/app/modules';
import { useTranslation } from '@/i18n/use-translation';
import { DesktopActivationDialog } from './DesktopActivationDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { StartEnrollmentDialog } from './StartEnrollmentDialog';

type Open = 'enroll' | 'reset' | 'desktop' | undefined;

/**
 * The user list's onboarding actions: menu items and the dialog they open. Desktop activation only
 * while the WireGuard module is on: its token serves nothing else (the API answers 404 otherwise).
 */
export function useEnrollmentActions(user: User): { items: { label: string; onSelect: () => void }[]; dialog: ReactNode } {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Open>(undefined);
  const isWireguardEnabled = useModuleEnabled('wireguard');
  const close = () => setOpen(undefined);
  return {
    items: [
      { label: t('enrollment.action.start'), onSelect: () => setOpen('enroll') },
      { label: t('enrollment.action.resetPassword'), onSelect: () => setOpen('reset') },
      ...(isWireguardEnabled ? [{ label: t('enrollment.action.desktop'), onSelect: () => setOpen('desktop') }] : []),
    ],
    dialog:
      open === 'enroll' ? (
        <StartEnrollmentDialog user={user} onClose={close} />
      ) : open === 'reset' ? (
        <ResetPasswordDialog user={user} onClose={close} />
      ) : open === 'desktop' ? (
        <DesktopActivationDialog user={user} onClose={close} />
      ) : null,
  };
}

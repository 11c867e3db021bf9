import { useCallback } from 'react';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { COPY_MESSAGES, copyText } from './clipboard';

/** Copies text and reports the outcome as a toast (success or the spec §8 clipboard errors). */
export function useCopy() {
  const { t } = useTranslation();
  return useCallback(
    async (text: string) => {
      const result = await copyText(text, { isSecureContext: window.isSecureContext, clipboard: navigator.clipboard });
      pushToast({ id: 'clipboard', kind: result === 'copied' ? 'success' : 'error', message: t(COPY_MESSAGES[result]) });
      return result === 'copied';
    },
    [t],
  );
}

import type { CreatedApiToken } from '@palisade/contracts';
import { useId } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';

/** The new token, shown once (spec §9), with Copy and a clear warning that it will not be shown again. */
export function ApiTokenShownDialog({ created, onClose }: { created: CreatedApiToken; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const id = useId();
  return (
    <Dialog
      title={t('apiTokens.shownTitle', { name: created.name })}
      isOpen
      onClose={onClose}
      confirmClose={t('apiTokens.closeConfirm')}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('apiTokens.done')}
        </Button>
      }
    >
      <p className="banner banner--warning" id={`${id}-once`}>
        {t('apiTokens.shownOnce')}
      </p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-token`}>
          {t('apiTokens.token')}
        </label>
        <div className="api-token-secret">
          <input
            id={`${id}-token`}
            className="input mono"
            readOnly
            value={created.token}
            aria-describedby={`${id}-once`}
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button onClick={() => void copy(created.token)}>{t('apiTokens.copy')}</Button>
        </div>
        <p className="field__hint">{t('apiTokens.usage')}</p>
      </div>
    </Dialog>
  );
}

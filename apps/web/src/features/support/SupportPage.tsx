import { ApiError } from '@palisade/api-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import type { Translate } from '@/i18n/translate';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { SupportActionCard } from './SupportActionCard';
import { useDownloadLogs, useDownloadSupportData, useSendSupportMail } from './support.mutations';
import { supportConfigurationQueryOptions } from './support.queries';
import './support.css';

/** 'Error sending email' (spec §8), with the SMTP server's reason when it gave one. */
function sendErrorMessage(t: Translate, error: unknown): string {
  if (!(error instanceof ApiError) || error.code !== 'mail.send_failed') return problemMessage(t, error);
  const reason = (error.problem.detail ?? '').replace(/^Error sending email:\s*/, '');
  return reason ? `${t('error.mail.send_failed')}: ${reason}` : t('error.mail.send_failed');
}

/**
 * Support (spec §2): download the support data and the logs, or send both to the support address
 * (docs/support.md). The API redacts every secret before anything leaves it.
 */
export function SupportPage() {
  const { t } = useTranslation();
  const configuration = useQuery(supportConfigurationQueryOptions);
  const downloadData = useDownloadSupportData();
  const downloadLogs = useDownloadLogs();
  const send = useSendSupportMail();
  const [isConfirming, setConfirming] = useState(false);
  const address = configuration.data?.support_email;
  const onSend = () =>
    send.mutate(undefined, {
      onSuccess: () => pushToast({ id: 'support-mail', kind: 'success', message: t('support.mail.sent', { to: address ?? '' }) }),
      onSettled: () => setConfirming(false),
    });
  const addressHint = configuration.isPending ? t('support.mail.loading') : address ? t('support.mail.hint') : t('support.mail.noAddress');
  return (
    <section aria-labelledby="support-title">
      <header className="page-header">
        <h1 id="support-title" className="page-header__title">
          {t('support.title')}
        </h1>
      </header>
      <div className="support-cards">
        <SupportActionCard
          title={t('support.data.title')}
          description={t('support.data.hint')}
          actionLabel={t('support.data.download')}
          onAction={() => downloadData.mutate()}
          isPending={downloadData.isPending}
          error={downloadData.isError ? problemMessage(t, downloadData.error) : undefined}
        />
        <SupportActionCard
          title={t('support.logs.title')}
          description={t('support.logs.hint', { count: 2000 })}
          actionLabel={t('support.logs.download')}
          onAction={() => downloadLogs.mutate()}
          isPending={downloadLogs.isPending}
          error={downloadLogs.isError ? problemMessage(t, downloadLogs.error) : undefined}
        />
        <SupportActionCard
          title={t('support.mail.title')}
          description={
            <>
              <p>{addressHint}</p>
              {address ? <p className="support-card__address">{address}</p> : null}
            </>
          }
          actionLabel={t('support.mail.send')}
          onAction={() => setConfirming(true)}
          isPending={send.isPending}
          isDisabled={!address}
          error={send.isError ? sendErrorMessage(t, send.error) : undefined}
        />
      </div>
      <ConfirmDialog
        title={t('support.mail.confirmTitle')}
        isOpen={isConfirming}
        onCancel={() => setConfirming(false)}
        onConfirm={onSend}
        confirmLabel={t('support.mail.send')}
        isPending={send.isPending}
      >
        <p>{t('support.mail.confirm', { to: address ?? '' })}</p>
      </ConfirmDialog>
    </section>
  );
}

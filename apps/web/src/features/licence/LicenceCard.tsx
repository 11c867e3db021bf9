import { type EnterpriseInfo, LICENCE_RESOURCES } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { formatDate } from '@/i18n/format';
import { describeExceeded, RESOURCE_LABELS, STATUS_LABELS } from './licence-view';
import { useRemoveLicence, useSetLicence } from './licence.mutations';
import { enterpriseInfoQueryOptions } from './licence.queries';
import './licence.css';

const statusTone = (info: EnterpriseInfo) =>
  info.status === 'active' ? (info.grace_period ? 'warning' : 'success') : info.status === 'no_licence' ? 'neutral' : 'error';

/**
 * Settings › Global › Licence (docs/licensing.md): state, type, validity, usage against the limits,
 * and entering, replacing or removing the key. No <form>: it sits inside the Global settings form.
 */
export function LicenceCard() {
  const { t } = useTranslation();
  const info = useQuery(enterpriseInfoQueryOptions);
  return (
    <section className="card licence" aria-labelledby="licence-title">
      <div className="card__header">
        <h2 id="licence-title" className="card__title">
          {t('licence.title')}
        </h2>
        {info.data ? (
          <Badge tone={statusTone(info.data)}>
            {t(STATUS_LABELS[info.data.status])}
            {info.data.grace_period ? ` · ${t('licence.grace')}` : ''}
          </Badge>
        ) : null}
      </div>
      <div className="card__body">
        {info.isPending ? <StateMessage kind="loading" title={t('common.loading')} /> : null}
        {info.isError ? <StateMessage kind="error" title={t('licence.loadError')} onRetry={() => void info.refetch()} /> : null}
        {info.data ? <LicenceDetails info={info.data} /> : null}
        {info.data ? <LicenceKeyEditor hasLicence={info.data.licence != null} /> : null}
      </div>
    </section>
  );
}

function LicenceDetails({ info }: { info: EnterpriseInfo }) {
  const { t, language } = useTranslation();
  const { licence } = info;
  const free = !licence || info.status === 'expired';
  return (
    <>
      {info.grace_period && licence && info.grace_ends_at ? (
        <p className="banner banner--warning" role="status">
          {t('licence.graceWarning', { date: formatDate(language, licence.valid_until), end: formatDate(language, info.grace_ends_at) })}
        </p>
      ) : null}
      {info.status === 'expired' ? <p className="banner banner--error">{t('licence.expiredNote')}</p> : null}
      {info.status === 'limits_exceeded' ? (
        <p className="banner banner--error">{t('licence.exceededNote', { exceeded: describeExceeded(info, t) })}</p>
      ) : null}
      {info.status === 'no_licence' ? <p className="field__hint">{t('licence.noneNote')}</p> : null}
      {licence ? (
        <dl className="licence__facts">
          <dt>{t('licence.customer')}</dt>
          <dd>{licence.customer}</dd>
          <dt>{t('licence.id')}</dt>
          <dd className="mono">{licence.id}</dd>
          <dt>{t('licence.type')}</dt>
          <dd>{t(licence.type === 'subscription' ? 'licence.type.subscription' : 'licence.type.offline')}</dd>
          <dt>{t('licence.validUntil')}</dt>
          <dd>{formatDate(language, licence.valid_until)}</dd>
        </dl>
      ) : null}
      <table className="table licence__usage">
        <caption className="licence__caption">{t(free ? 'licence.usageFree' : 'licence.usageLicence')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('licence.resource')}</th>
            <th scope="col">{t('licence.inUse')}</th>
            <th scope="col">{t('licence.limit')}</th>
          </tr>
        </thead>
        <tbody>
          {LICENCE_RESOURCES.map((resource) => {
            const limit = info.limits[resource];
            const over = info.exceeded.includes(resource);
            return (
              <tr key={resource} className={over ? 'licence__over' : undefined}>
                <th scope="row">{t(RESOURCE_LABELS[resource])}</th>
                <td>{info.usage[resource]}</td>
                <td>{limit == null ? t('licence.unlimited') : limit}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="licence__enterprise">{t(info.enterprise_enabled ? 'licence.enterpriseOn' : 'licence.enterpriseOff')}</p>
    </>
  );
}

function LicenceKeyEditor({ hasLicence }: { hasLicence: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [key, setKey] = useState('');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const save = useSetLicence();
  const remove = useRemoveLicence();
  const onSave = () =>
    save.mutate(key.trim(), {
      onSuccess: () => {
        setKey('');
        pushToast({ id: 'licence', kind: 'success', message: t('licence.saved') });
      },
    });
  const onRemove = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirmRemove(false);
        pushToast({ id: 'licence', kind: 'success', message: t('licence.removed') });
      },
      onError: (error) => pushToast({ id: 'licence', kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <div className="licence__editor">
      <div className={['field', save.isError ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
        <label className="field__label" htmlFor={id}>
          {t(hasLicence ? 'licence.newKey' : 'licence.key')}
        </label>
        <textarea
          id={id}
          className="input mono licence__key"
          rows={3}
          spellCheck={false}
          autoComplete="off"
          value={key}
          onChange={(e) => {
            setKey(e.target.value);
            save.reset();
          }}
          aria-invalid={save.isError ? true : undefined}
          aria-describedby={`${id}-hint${save.isError ? ` ${id}-error` : ''}`}
        />
        {save.isError ? (
          <p id={`${id}-error`} className="field__error" role="alert">
            {problemMessage(t, save.error)}
          </p>
        ) : null}
        <p id={`${id}-hint`} className="field__hint">
          {t('licence.keyHint')}
        </p>
      </div>
      <div className="form-actions">
        {hasLicence ? (
          <Button variant="danger" onClick={() => setConfirmRemove(true)}>
            {t('licence.remove')}
          </Button>
        ) : null}
        <Button variant="primary" onClick={onSave} disabled={key.trim() === ''} isLoading={save.isPending}>
          {t(hasLicence ? 'licence.replace' : 'licence.save')}
        </Button>
      </div>
      <ConfirmDialog
        title={t('licence.removeTitle')}
        isOpen={confirmRemove}
        onCancel={() => setConfirmRemove(false)}
        onConfirm={onRemove}
        confirmLabel={t('licence.remove')}
        isDanger
        isPending={remove.isPending}
      >
        <p>{t('licence.removeBody')}</p>
      </ConfirmDialog>
    </div>
  );
}

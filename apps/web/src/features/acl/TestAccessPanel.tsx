import { unwrap } from '@palisade/api-client';
import { type AclCheckResult, AclCheckQuerySchema } from '@palisade/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { locationsQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { api } from '@/lib/api';
import { useZodForm } from '@/lib/use-zod-form';
import { useDeviceMatches, useNetworkDeviceMatches, useUserIdMatches } from './picker-sources';
import { SearchPicker } from './SearchPicker';
import {
  accessCheckQuery,
  CHECK_PROTOCOLS,
  CHECK_SOURCE_KINDS,
  type CheckSourceKind,
  decisionKey,
  EMPTY_ACCESS_CHECK,
} from './access-check';

const SOURCES = { user: useUserIdMatches, device: useDeviceMatches, network_device: useNetworkDeviceMatches };

/** Our addition (issue 12): would this source reach this address now? Decided as the gateways decide, from the deployed rules. */
export function TestAccessPanel() {
  const { t } = useTranslation();
  const locations = useQuery(locationsQueryOptions);
  const form = useZodForm(AclCheckQuerySchema, EMPTY_ACCESS_CHECK);
  const v = form.values;
  const check = useMutation({
    mutationFn: async (query: Record<string, string>): Promise<AclCheckResult> =>
      unwrap(api.GET('/api/v1/acl/check', { params: { query: query as never } })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    check.reset();
    const query = accessCheckQuery(v);
    if (form.validate(query)) check.mutate(query, { onError: (error) => form.applyServerError(error) });
  };
  const setKind = (kind: CheckSourceKind) => {
    form.setValue('kind', kind);
    form.setValue('source', []);
  };
  const result = check.data;
  return (
    <section className="card acl-section acl-check" aria-labelledby="acl-check-title">
      <h2 id="acl-check-title" className="acl-section__title">
        {t('acl.check.title')}
      </h2>
      <form className="acl-check__form" onSubmit={submit} noValidate aria-label={t('acl.check.title')}>
        <p className="field__hint">{t('acl.check.hint')}</p>
        <div className="acl-check__grid">
          <SelectField
            label={t('acl.check.location')}
            value={v.location}
            options={[
              { value: '', label: t('acl.check.chooseLocation') },
              ...(locations.data ?? []).map((l) => ({ value: String(l.id), label: l.name })),
            ]}
            onValueChange={(x) => form.setValue('location', x)}
          />
          <SelectField
            label={t('acl.check.sourceKind')}
            value={v.kind}
            options={CHECK_SOURCE_KINDS.map((kind) => ({ value: kind, label: t(`acl.check.kind.${kind}`) }))}
            onValueChange={setKind}
          />
          <SearchPicker
            key={v.kind}
            label={t(`acl.check.kind.${v.kind}`)}
            value={v.source}
            onChange={(x) => form.setValue('source', x.slice(-1))}
            useSource={SOURCES[v.kind]}
            isInvalid={Boolean(form.errors.source)}
          />
          <TextField
            label={t('acl.check.destination')}
            name="destination"
            placeholder="10.1.0.5"
            autoComplete="off"
            value={v.destination}
            onValueChange={(x) => form.setValue('destination', x)}
            error={form.errors.destination}
          />
          <SelectField
            label={t('acl.check.protocol')}
            value={v.protocol}
            options={CHECK_PROTOCOLS.map((p) => ({ value: p, label: p.toUpperCase() }))}
            onValueChange={(x) => form.setValue('protocol', x)}
          />
          {v.protocol === 'icmp' ? null : (
            <TextField
              label={t('acl.check.port')}
              name="port"
              inputMode="numeric"
              autoComplete="off"
              value={v.port}
              onValueChange={(x) => form.setValue('port', x)}
              error={form.errors.port}
            />
          )}
        </div>
        {form.errors.location ? (
          <p className="field__error" role="alert">
            {t('acl.check.locationRequired')}
          </p>
        ) : null}
        {form.errors.source ? (
          <p className="field__error" role="alert">
            {t('acl.check.sourceRequired')}
          </p>
        ) : null}
        <div className="form-actions">
          <Button type="submit" variant="primary" isLoading={check.isPending}>
            {t('acl.check.submit')}
          </Button>
        </div>
      </form>
      <FormErrorBanner error={form.errors.destination ? null : check.error} />
      {result ? (
        <div className="acl-check__result" role="status">
          <Badge tone={result.verdict === 'allow' ? 'success' : 'error'}>
            {t(result.verdict === 'allow' ? 'acl.check.allow' : 'acl.check.deny')}
          </Badge>
          <span>{t(decisionKey(result), { name: result.decided_by.kind === 'rule' ? result.decided_by.rule_name : '' })}</span>
          {check.variables?.source?.startsWith('user:') && result.source_devices.length === 0 ? (
            <span className="muted">{t('acl.check.noDevices')}</span>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

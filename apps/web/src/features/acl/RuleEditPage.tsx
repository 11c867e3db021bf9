import type { AclRule, AclRuleBody } from '@palisade/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { RuleForm } from './RuleForm';
import { RuleStatusBadge } from './RuleStatusBadge';
import { useUpdateAclRule } from './acl.mutations';
import { aclNetworkDeviceQueryOptions, aclRuleQueryOptions, aclRulesQueryOptions } from './acl.queries';
import { ruleFormValues } from './rule-form';
import './acl.css';

/** Names of the network devices a rule holds (by id), once loaded; a deleted one keeps its number. */
function useDeviceLabels(rule: AclRule | undefined) {
  const ids = rule ? [...new Set([...rule.allowed_network_devices, ...rule.denied_network_devices])] : [];
  return useQueries({
    queries: ids.map((id) => ({ ...aclNetworkDeviceQueryOptions(id), retry: false })),
    combine: (results) => ({
      isPending: results.some((r) => r.isPending),
      label: (id: number) => {
        const device = results[ids.indexOf(id)]?.data;
        return device ? `${device.name} (${device.location_name})` : `#${id}`;
      },
    }),
  });
}

/** Spec §2/§4: editing a deployed rule saves a pending change of it (its pending version is what is edited). */
export function RuleEditPage() {
  const { t } = useTranslation();
  const id = Number(useParams({ from: '/_authed/_admin/acl/rules/$id' }).id);
  const navigate = useNavigate();
  const rules = useQuery(aclRulesQueryOptions);
  const pendingChange = rules.data?.find((r) => r.parent_id === id && r.state !== 'applied');
  const rule = useQuery({ ...aclRuleQueryOptions(pendingChange?.id ?? id), enabled: !rules.isPending });
  const devices = useDeviceLabels(rule.data);
  const update = useUpdateAclRule();

  if (rules.isPending || rule.isPending || devices.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (rule.isError)
    return (
      <StateMessage kind="error" title={t('acl.rule.loadError')} hint={problemMessage(t, rule.error)} onRetry={() => void rule.refetch()} />
    );

  const save = (body: AclRuleBody) =>
    update.mutateAsync({ id: rule.data.id, body }).then(
      (saved) => {
        pushToast({ id: `acl-rule-saved-${saved.id}`, kind: 'success', message: t('acl.rule.savedPending') });
        void navigate({ to: '/acl', ignoreBlocker: true });
        return undefined;
      },
      (error: unknown) => error,
    );
  return (
    <section aria-labelledby="acl-rule-title">
      <header className="page-header">
        <div>
          <Link to="/acl" className="btn btn--link">
            ← {t('acl.back')}
          </Link>
          <h1 id="acl-rule-title" className="page-header__title">
            {t('acl.rule.editTitle', { name: rule.data.name })}
          </h1>
          <RuleStatusBadge rule={rule.data} />
        </div>
      </header>
      {rule.data.state === 'applied' ? <p className="muted acl-form__note">{t('acl.rule.editDeployedNote')}</p> : null}
      <RuleForm key={rule.data.id} initial={ruleFormValues(rule.data, devices.label)} isPending={update.isPending} onSubmit={save} />
    </section>
  );
}

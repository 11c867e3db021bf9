import type { AclRule } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { locationsQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { AclTabs } from './AclTabs';
import { DeleteRuleDialog } from './DeleteRuleDialog';
import { PendingRules } from './PendingRules';
import { RulesTable, type RuleAction } from './RulesTable';
import { RulesToolbar } from './RulesToolbar';
import { TestAccessPanel } from './TestAccessPanel';
import { useUpdateAclRule } from './acl.mutations';
import { aclAliasesQueryOptions, aclRulesQueryOptions } from './acl.queries';
import { ruleToBody } from './rule-form';
import { filterRules, NO_RULE_FILTERS, pendingParents, splitRules } from './rule-list';
import '@/features/users/users.css';
import './acl.css';

/** Spec §2 ACL, Rules tab: pending changes (to deploy or discard) above the deployed rules. */
export function AclRulesPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState(NO_RULE_FILTERS);
  const [deleting, setDeleting] = useState<AclRule | undefined>(undefined);
  const rules = useQuery(aclRulesQueryOptions);
  const locations = useQuery(locationsQueryOptions);
  const aliases = useQuery(aclAliasesQueryOptions);
  const update = useUpdateAclRule();
  const navigate = useNavigate();
  const locked = useEnterpriseLocked();
  const all = rules.data ?? [];
  const { deployed, pending } = splitRules(filterRules(all, filters));
  const unfiltered = splitRules(all);

  // A deployed rule's pending change is what its actions change further.
  const current = (rule: AclRule) => all.find((r) => r.parent_id === rule.id && r.state !== 'applied') ?? rule;
  const toggle = (rule: AclRule) =>
    update.mutate(
      { id: rule.id, body: { ...ruleToBody(rule), enabled: !rule.enabled } },
      {
        onSuccess: () => pushToast({ id: `acl-rule-state-${rule.id}`, kind: 'success', message: t('acl.rule.savedPending') }),
        onError: (error) => pushToast({ id: `acl-rule-state-error-${rule.id}`, kind: 'error', message: problemMessage(t, error) }),
      },
    );
  const onAction = (action: RuleAction, rule: AclRule) => {
    if (action === 'edit') void navigate({ to: '/acl/rules/$id', params: { id: String(rule.id) } });
    else if (action === 'toggle') toggle(current(rule));
    else setDeleting(rule);
  };
  const tableProps = { locations: locations.data ?? [], aliases: aliases.data ?? [], onAction };

  return (
    <section aria-labelledby="acl-title">
      <header className="page-header">
        <h1 id="acl-title" className="page-header__title">
          {t('acl.title')}
        </h1>
        <div className="page-header__actions">
          <Link to="/acl/rules/new" className="btn btn--primary" disabled={locked} aria-disabled={locked || undefined}>
            {t('acl.rule.add')}
          </Link>
        </div>
      </header>
      <AclTabs />
      {rules.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : rules.isError ? (
        <StateMessage kind="error" title={t('acl.rules.loadError')} onRetry={() => void rules.refetch()} />
      ) : all.length === 0 ? (
        <div className="card">
          <StateMessage kind="empty" title={t('acl.rules.empty')} hint={t('acl.rules.emptyHint')} />
        </div>
      ) : (
        <>
          <div className="card">
            <RulesToolbar rules={all} locations={locations.data ?? []} filters={filters} onFiltersChange={setFilters} />
          </div>
          <PendingRules rules={pending} allPending={unfiltered.pending} tableProps={tableProps} />
          <section className="card acl-section" aria-labelledby="acl-deployed-title">
            <h2 id="acl-deployed-title" className="acl-section__title">
              {t('acl.rules.deployed')}
            </h2>
            {deployed.length === 0 ? (
              <StateMessage kind="empty" title={t(unfiltered.deployed.length === 0 ? 'acl.rules.noneDeployed' : 'acl.rules.noMatch')} />
            ) : (
              <RulesTable label={t('acl.rules.deployed')} rules={deployed} changed={pendingParents(all)} {...tableProps} />
            )}
          </section>
        </>
      )}
      {rules.isSuccess ? <TestAccessPanel /> : null}
      {deleting ? <DeleteRuleDialog rule={deleting} onClose={() => setDeleting(undefined)} /> : null}
    </section>
  );
}

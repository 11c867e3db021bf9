import type { AclRule } from '@palisade/contracts';
import { type ComponentProps, useState } from 'react';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { useTranslation } from '@/i18n/use-translation';
import { RulesTable } from './RulesTable';
import { SettleRulesDialog } from './SettleRulesDialog';

interface PendingRulesProps {
  /** The pending rules the filters leave. */
  rules: readonly AclRule[];
  /** Every pending rule ("Deploy all" and "Discard all" ignore the filters). */
  allPending: readonly AclRule[];
  tableProps: Omit<ComponentProps<typeof RulesTable>, 'label' | 'rules' | 'selection' | 'changed'>;
}

/** Spec §4: pending changes are deployed or discarded, all or the selected ones, after a confirmation with the count. */
export function PendingRules({ rules, allPending, tableProps }: PendingRulesProps) {
  const { t } = useTranslation();
  const locked = useEnterpriseLocked();
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [settling, setSettling] = useState<{ action: 'apply' | 'discard'; rules: number[] } | undefined>(undefined);
  const pendingIds = new Set(allPending.map((r) => r.id));
  const selected = new Set([...chosen].filter((id) => pendingIds.has(id)));
  const targets = selected.size > 0 ? [...selected] : [...pendingIds];
  const settle = (action: 'apply' | 'discard') => setSettling({ action, rules: targets });
  const title = t('acl.rules.pending');
  return (
    <section className="card acl-section" aria-labelledby="acl-pending-title">
      <div className="acl-section__head">
        <h2 id="acl-pending-title" className="acl-section__title">
          {title}
        </h2>
        {pendingIds.size > 0 ? (
          <div className="acl-section__actions">
            {selected.size > 0 ? <span className="acl-section__count">{t('acl.rules.selected', { count: selected.size })}</span> : null}
            <Button onClick={() => settle('discard')} disabled={locked}>
              {selected.size > 0 ? t('acl.discard.selected') : t('acl.discard.all')}
            </Button>
            <Button variant="primary" onClick={() => settle('apply')} disabled={locked}>
              {selected.size > 0 ? t('acl.deploy.selected') : t('acl.deploy.all')}
            </Button>
          </div>
        ) : null}
      </div>
      {rules.length === 0 ? (
        <StateMessage kind="empty" title={t(allPending.length === 0 ? 'acl.rules.nonePending' : 'acl.rules.noMatch')} />
      ) : (
        <RulesTable label={title} rules={rules} selection={{ selected, onChange: setChosen }} {...tableProps} />
      )}
      {settling ? (
        <SettleRulesDialog
          action={settling.action}
          rules={settling.rules}
          onClose={() => setSettling(undefined)}
          onDone={() => {
            setSettling(undefined);
            setChosen(new Set());
          }}
        />
      ) : null}
    </section>
  );
}

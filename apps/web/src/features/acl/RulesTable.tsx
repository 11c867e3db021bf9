import type { AclAlias, AclRule, Network } from '@palisade/contracts';
import { Link } from '@tanstack/react-router';
import { Badge } from '@/components/Badge';
import { Menu, type MenuItem } from '@/components/Menu';
import { useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { useTranslation } from '@/i18n/use-translation';
import { RuleStatusBadge } from './RuleStatusBadge';
import { locationsSummary, membersSummary, trafficSummary } from './rule-summary';

export type RuleAction = 'edit' | 'toggle' | 'delete';

interface RulesTableProps {
  label: string;
  rules: readonly AclRule[];
  locations: readonly Network[];
  aliases: readonly AclAlias[];
  onAction: (action: RuleAction, rule: AclRule) => void;
  /** Pending list only: the chosen rows. */
  selection?: { selected: ReadonlySet<number>; onChange: (selected: ReadonlySet<number>) => void };
  /** Deployed rules with a pending change. */
  changed?: ReadonlySet<number>;
}

export function RulesTable({ label, rules, locations, aliases, onAction, selection, changed }: RulesTableProps) {
  const { t } = useTranslation();
  // Without a licence above the free limits changes are refused: no actions to offer (docs/licensing.md).
  const locked = useEnterpriseLocked();
  const allSelected = selection !== undefined && rules.length > 0 && rules.every((r) => selection.selected.has(r.id));
  const toggleAll = () => selection?.onChange(allSelected ? new Set() : new Set(rules.map((r) => r.id)));
  const toggle = (id: number) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (!next.delete(id)) next.add(id);
    selection.onChange(next);
  };
  const itemsFor = (rule: AclRule): MenuItem[] =>
    rule.state === 'deleted' || locked
      ? []
      : [
          { label: t('common.edit'), onSelect: () => onAction('edit', rule) },
          { label: t(rule.enabled ? 'acl.rule.disable' : 'acl.rule.enable'), onSelect: () => onAction('toggle', rule) },
          { label: t('common.delete'), onSelect: () => onAction('delete', rule), isDanger: true },
        ];
  return (
    <div className="table-wrap">
      <table className="table acl-table" aria-label={label}>
        <thead>
          <tr>
            {selection ? (
              <th scope="col" className="col-check">
                <input
                  type="checkbox"
                  className="checkbox"
                  checked={allSelected}
                  onChange={toggleAll}
                  aria-label={t('acl.rules.selectAll')}
                />
              </th>
            ) : null}
            <th scope="col">{t('acl.rule.name')}</th>
            <th scope="col">{t('acl.rule.status')}</th>
            <th scope="col">{t('acl.rule.priority')}</th>
            <th scope="col" className="col-md">
              {t('acl.rule.locations')}
            </th>
            <th scope="col">{t('acl.rule.allowed')}</th>
            <th scope="col" className="col-md">
              {t('acl.rule.denied')}
            </th>
            <th scope="col" className="col-lg">
              {t('acl.rule.traffic')}
            </th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <tr key={rule.id} className={selection?.selected.has(rule.id) ? 'is-selected' : undefined}>
              {selection ? (
                <td className="col-check">
                  <input
                    type="checkbox"
                    className="checkbox"
                    checked={selection.selected.has(rule.id)}
                    onChange={() => toggle(rule.id)}
                    aria-label={t('acl.rules.select', { name: rule.name })}
                  />
                </td>
              ) : null}
              <td>
                {rule.state === 'deleted' ? (
                  rule.name
                ) : (
                  <Link to="/acl/rules/$id" params={{ id: String(rule.id) }} className="acl-table__name">
                    {rule.name}
                  </Link>
                )}
              </td>
              <td>
                <RuleStatusBadge rule={rule} />
                {changed?.has(rule.id) ? <Badge tone="warning">{t('acl.rule.changePending')}</Badge> : null}
              </td>
              <td className="mono">{rule.priority}</td>
              <td className="col-md">{locationsSummary(t, rule, locations)}</td>
              <td>{membersSummary(t, rule, 'allow')}</td>
              <td className="col-md">{membersSummary(t, rule, 'deny')}</td>
              <td className="col-lg acl-table__traffic">{trafficSummary(t, rule, aliases)}</td>
              <td className="col-actions">
                {itemsFor(rule).length ? <Menu label={t('acl.rule.actionsFor', { name: rule.name })} items={itemsFor(rule)} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

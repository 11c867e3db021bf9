import type { AclAlias } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { Menu, type MenuItem } from '@/components/Menu';
import { useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { useTranslation } from '@/i18n/use-translation';
import { affectedRules } from './alias-form';

export type AliasAction = 'edit' | 'delete' | 'deploy' | 'discard';

interface AliasesTableProps {
  /** The aliases shown (each once, its pending version when it has one). */
  aliases: readonly AclAlias[];
  /** Every alias row (deployed versions carry the rules using them). */
  all: readonly AclAlias[];
  onAction: (action: AliasAction, alias: AclAlias) => void;
}

const listOrDash = (values: readonly string[]) => (values.length ? values.join(', ') : '—');

/** Spec §4 aliases: name, kind, status (applied, changed), what they select, and the deployed rules using them. */
export function AliasesTable({ aliases, all, onAction }: AliasesTableProps) {
  const { t } = useTranslation();
  // Without a licence above the free limits changes are refused: no actions to offer (docs/licensing.md).
  const locked = useEnterpriseLocked();
  const itemsFor = (alias: AclAlias): MenuItem[] => [
    { label: t('common.edit'), onSelect: () => onAction('edit', alias) },
    ...(alias.state === 'changed'
      ? [
          { label: t('acl.alias.deploy'), onSelect: () => onAction('deploy', alias) },
          { label: t('acl.alias.discard'), onSelect: () => onAction('discard', alias) },
        ]
      : []),
    { label: t('common.delete'), onSelect: () => onAction('delete', alias), isDanger: true },
  ];
  return (
    <div className="table-wrap">
      <table className="table acl-table" aria-label={t('acl.tab.aliases')}>
        <thead>
          <tr>
            <th scope="col">{t('acl.alias.name')}</th>
            <th scope="col">{t('acl.alias.kind')}</th>
            <th scope="col">{t('acl.alias.status')}</th>
            <th scope="col" className="col-md">
              {t('acl.alias.destinations')}
            </th>
            <th scope="col" className="col-md">
              {t('acl.alias.ports')}
            </th>
            <th scope="col">{t('acl.alias.protocols')}</th>
            <th scope="col" className="col-lg">
              {t('acl.alias.usedBy')}
            </th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {aliases.map((alias) => (
            <tr key={alias.id}>
              <td>{alias.name}</td>
              <td>{t(`acl.alias.kind.${alias.kind}`)}</td>
              <td>
                <Badge tone={alias.state === 'changed' ? 'warning' : 'success'}>{t(`acl.alias.state.${alias.state}`)}</Badge>
              </td>
              <td className="col-md mono acl-table__wrap">{listOrDash(alias.destinations)}</td>
              <td className="col-md mono">{listOrDash(alias.ports)}</td>
              <td>{listOrDash(alias.protocols.map((p) => p.toUpperCase()))}</td>
              <td className="col-lg">{listOrDash(affectedRules(all, [alias]).map((r) => r.name))}</td>
              <td className="col-actions">
                {locked ? null : <Menu label={t('acl.alias.actionsFor', { name: alias.name })} items={itemsFor(alias)} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

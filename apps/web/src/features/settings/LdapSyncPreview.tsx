import type { LdapSyncChange, LdapSyncResult } from '@palisade/contracts';
import { Dialog } from '@/components/Dialog';
import { useTranslation } from '@/i18n/use-translation';

interface Group {
  key: string;
  side: LdapSyncChange['side'];
  kind: LdapSyncChange['kind'];
  items: string[];
}

const label = (c: LdapSyncChange): string => {
  if (c.kind === 'add_member' || c.kind === 'remove_member') return `${c.username} → ${c.group}`;
  if (c.kind === 'create_group') return c.group ?? '';
  if (c.kind === 'rename_user') return `${c.dn} → ${c.new_dn}`;
  const name = c.username ?? c.dn ?? '';
  return c.fields?.length ? `${name} (${c.fields.join(', ')})` : name;
};

/** Changes grouped by side and kind, in the order the plan first names them. */
export function groupChanges(changes: LdapSyncChange[]): Group[] {
  const groups = new Map<string, Group>();
  for (const c of changes) {
    const key = `${c.side}.${c.kind}`;
    const group = groups.get(key) ?? { key, side: c.side, kind: c.kind, items: [] };
    group.items.push(label(c));
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** "Preview sync": what a run would change, grouped with counts; "Nothing to change" when empty. */
export function LdapSyncPreview({ result, onClose }: { result: LdapSyncResult; onClose: () => void }) {
  const { t } = useTranslation();
  const groups = groupChanges(result.changes);
  return (
    <Dialog title={t('ldapSync.previewTitle')} isOpen onClose={onClose} size="lg">
      {groups.length === 0 ? <p>{t('ldapSync.nothing')}</p> : null}
      {groups.map((g) => (
        <section key={g.key} aria-label={`${t(`ldapSync.side.${g.side}`)}: ${t(`ldapSync.kind.${g.kind}`)}`}>
          <h3 className="card__title">
            {t('ldapSync.groupTitle', {
              side: t(`ldapSync.side.${g.side}`),
              kind: t(`ldapSync.kind.${g.kind}`),
              n: String(g.items.length),
            })}
          </h3>
          <ul>
            {g.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
      {result.skipped.length > 0 ? (
        <section aria-label={t('ldapSync.skipped')}>
          <h3 className="card__title">{t('ldapSync.skipped')}</h3>
          <ul>
            {result.skipped.map((s) => (
              <li key={`${s.username}.${s.change}`}>
                {s.username}: {t(`ldapSync.reason.${s.reason}`)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Dialog>
  );
}

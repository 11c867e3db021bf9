import type { AclRule } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { useTranslation } from '@/i18n/use-translation';
import { RULE_STATUS_TONES, ruleStatusLabel } from './rule-list';

/** Spec §4 status; a deployed rule that is switched off says so too. */
export function RuleStatusBadge({ rule }: { rule: Pick<AclRule, 'status' | 'state' | 'enabled'> }) {
  const { t } = useTranslation();
  return (
    <span className="acl-badges">
      <Badge tone={RULE_STATUS_TONES[rule.status]}>{t(ruleStatusLabel(rule.status))}</Badge>
      {rule.state === 'applied' && !rule.enabled ? <Badge tone="neutral">{t('acl.rule.off')}</Badge> : null}
    </span>
  );
}

import { useId } from 'react';
import { TagInput } from '@/components/TagInput';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import type { FieldIssue, FieldIssues } from '@/lib/field-errors';

interface ActivityLogSettingsCardProps {
  retentionDays: string;
  onRetentionDaysChange: (value: string) => void;
  egressAllowCidrs: readonly string[];
  onEgressAllowCidrsChange: (value: string[]) => void;
  errors: FieldIssues;
}

/** A list field's error: the list's own, or its first item's (`egress_allow_cidrs.2`). */
const listError = (errors: FieldIssues, name: string): FieldIssue | undefined =>
  errors[name] ?? Object.entries(errors).find(([path]) => path.startsWith(`${name}.`))?.[1];

/** Settings › Global: how long the activity log keeps entries, and where webhooks and streams may connect. */
export function ActivityLogSettingsCard(props: ActivityLogSettingsCardProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card__header">
        <h2 id={titleId} className="card__title">
          {t('settings.activityLog')}
        </h2>
      </div>
      <div className="card__body form-grid">
        <TextField
          label={t('settings.retentionDays')}
          name="activity_log_retention_days"
          inputMode="numeric"
          hint={t('settings.retentionHint')}
          value={props.retentionDays}
          onValueChange={props.onRetentionDaysChange}
          error={props.errors.activity_log_retention_days}
        />
        <TagInput
          label={t('settings.egressAllow')}
          hint={t('settings.egressAllowHint')}
          placeholder="10.0.0.0/8"
          isOptional
          values={props.egressAllowCidrs}
          onValuesChange={props.onEgressAllowCidrsChange}
          error={listError(props.errors, 'egress_allow_cidrs')}
        />
      </div>
    </section>
  );
}

import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { useTranslation } from '@/i18n/use-translation';
import { useLeaveGuard } from '@/lib/use-leave-guard';

/** Every settings tab asks before its unsaved changes are left behind (another tab or page, reload). */
export function useSettingsLeaveGuard(isDirty: boolean): void {
  const { t } = useTranslation();
  useLeaveGuard(isDirty, t('settings.unsavedLeave'));
}

interface SettingsFormActionsProps {
  isDirty: boolean;
  isSaving: boolean;
  /** A problem the server named no field for, shown once above the buttons until the next edit. */
  error: unknown;
  onReset: () => void;
}

/** The one save model of the settings tabs: Save (once something changed) and Discard changes. */
export function SettingsFormActions({ isDirty, isSaving, error, onReset }: SettingsFormActionsProps) {
  const { t } = useTranslation();
  return (
    <div className="settings__actions">
      <FormErrorBanner error={error} />
      <div className="form-actions">
        {isDirty ? <span className="settings__dirty">{t('settings.unsaved')}</span> : null}
        <Button onClick={onReset} disabled={!isDirty || isSaving}>
          {t('settings.discard')}
        </Button>
        <Button type="submit" variant="primary" isLoading={isSaving} disabled={!isDirty}>
          {t('common.save')}
        </Button>
      </div>
    </div>
  );
}

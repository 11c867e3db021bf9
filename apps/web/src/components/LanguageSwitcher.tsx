import { useAppStore } from '@/features/app/app-store';
import { LANGUAGES, type Language } from '@/i18n/languages';
import { useTranslation } from '@/i18n/use-translation';
import { SelectField } from './SelectField';

export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, language } = useTranslation();
  const setLanguage = useAppStore((s) => s.setLanguage);
  const options = LANGUAGES.map((value) => ({ value, label: t(`lang.${value}`) }));
  return (
    <SelectField<Language>
      label={t('lang.label')}
      value={language}
      options={options}
      onValueChange={setLanguage}
      className={['language-switcher', className ?? ''].join(' ')}
      isLabelHidden
      id={className ? `lang-${className}` : undefined}
    />
  );
}

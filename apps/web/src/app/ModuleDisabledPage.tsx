import { Link } from '@tanstack/react-router';
import { useTranslation } from '@/i18n/use-translation';

/** Shown instead of a screen whose module an administrator switched off (Settings › Global › Modules). */
export function ModuleDisabledPage() {
  const { t } = useTranslation();
  return (
    <section className="state state--empty module-disabled" aria-labelledby="module-disabled-title">
      <h1 id="module-disabled-title" className="state__title">
        {t('module.disabled.title')}
      </h1>
      <p className="state__hint">{t('module.disabled.text')}</p>
      <Link to="/" className="btn btn--primary">
        {t('notFound.back')}
      </Link>
    </section>
  );
}

import { Link } from '@tanstack/react-router';
import { useTranslation } from '@/i18n/use-translation';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="not-found" id="main">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link to="/" className="btn btn--primary">
        {t('notFound.back')}
      </Link>
    </main>
  );
}

import { Loader } from '@/components/Loader';
import { useTranslation } from '@/i18n/use-translation';

export function RoutePending() {
  const { t } = useTranslation();
  return (
    <div className="route-pending">
      <Loader size={32} label={t('common.loading')} />
    </div>
  );
}

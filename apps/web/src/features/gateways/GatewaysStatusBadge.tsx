import { Badge } from '@/components/Badge';
import { useTranslation } from '@/i18n/use-translation';
import { type GatewaysCheck, STATUS_VIEW } from './gateway-status';

/** The coloured gateway summary; `undefined` while the first check is still on its way. */
export function GatewaysStatusBadge({ status }: { status: GatewaysCheck | undefined }) {
  const { t } = useTranslation();
  if (status === undefined) return <Badge>{t('gateways.status.checking')}</Badge>;
  const view = STATUS_VIEW[status];
  return <Badge tone={view.tone}>{t(view.label)}</Badge>;
}

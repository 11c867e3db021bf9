import { Badge } from '@/components/Badge';
import { useTranslation } from '@/i18n/use-translation';
import { type GatewaysCheck, STATUS_VIEW } from './gateway-status';

export function GatewaysStatusBadge({ status }: { status: GatewaysCheck }) {
  const { t } = useTranslation();
  const view = STATUS_VIEW[status];
  return <Badge tone={view.tone}>{t(view.label)}</Badge>;
}

import type { ActivityLogEntry } from '@palisade/contracts';
import type { Translate } from '@/i18n/translate';

/** Who did it: the username, or the kind of actor when no user was involved. */
export function actorText(t: Translate, entry: ActivityLogEntry): string {
  if (entry.username) return entry.username;
  if (entry.actor_type === 'system') return t('activity.actor.system');
  if (entry.actor_type === 'gateway') return t('activity.actor.gateway');
  if (entry.actor_type === 'anonymous') return t('activity.actor.anonymous');
  return entry.user_id === undefined ? '' : `#${entry.user_id}`;
}

/** What it touched: the object's name, else its id. */
export const objectText = (entry: ActivityLogEntry): string => entry.object_name ?? entry.object_id ?? '';

export const deviceText = (entry: ActivityLogEntry): string =>
  entry.device_name ?? (entry.device_id === undefined ? '' : `#${entry.device_id}`);

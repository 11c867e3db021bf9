import type { EventModule, EventType } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

/**
 * The i18n key of each event type and module. The template types make a type or module of the
 * catalogue without a message in the catalogue a type error, so a new event cannot ship unlabelled.
 */
export const eventLabelKey = (type: EventType): MessageKey => `activity.event.${type}`;
export const moduleLabelKey = (module: EventModule): MessageKey => `activity.module.${module}`;

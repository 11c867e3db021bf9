import { EVENT_CATALOGUE, EVENT_MODULES, EVENT_TYPES, type EventModule, type EventType } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

/**
 * The i18n key of each event type and module. The template types make a type or module of the
 * catalogue without a message in the catalogue a type error, so a new event cannot ship unlabelled.
 */
export const eventLabelKey = (type: EventType): MessageKey => `activity.event.${type}`;
export const moduleLabelKey = (module: EventModule): MessageKey => `activity.module.${module}`;

/**
 * Only what the product records today is offered: event types whose emitter arrives with a later
 * capability, and modules with no such type yet, join the filters when they do.
 */
const isRecorded = (type: EventType) => !('later' in EVENT_CATALOGUE[type]);
export const FILTER_EVENTS: readonly EventType[] = EVENT_TYPES.filter(isRecorded);
export const FILTER_MODULES: readonly EventModule[] = EVENT_MODULES.filter((m) =>
  FILTER_EVENTS.some((type) => EVENT_CATALOGUE[type].module === m),
);

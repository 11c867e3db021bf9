import {
  type ActivityLogStream,
  type ActivityStreamKind,
  CreateActivityLogStreamBodySchema,
  UpdateActivityLogStreamBodySchema,
} from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

/** The add/edit form of a destination. The password is write-only: on edit it starts empty, and empty keeps it. */
export type StreamFormValues = {
  kind: ActivityStreamKind;
  name: string;
  url: string;
  username: string;
  password: string;
  certificate: string;
};

export const STREAM_KIND_LABELS: Record<ActivityStreamKind, MessageKey> = {
  vector_http: 'settings.streams.kind.vector_http',
  logstash_http: 'settings.streams.kind.logstash_http',
};

export const streamFormValues = (stream: ActivityLogStream | undefined): StreamFormValues =>
  stream
    ? { kind: stream.kind, name: stream.name, url: stream.url, username: stream.username, password: '', certificate: stream.certificate }
    : { kind: 'vector_http', name: '', url: '', username: '', password: '', certificate: '' };

export const streamSchema = (isNew: boolean) => (isNew ? CreateActivityLogStreamBodySchema : UpdateActivityLogStreamBodySchema);

/** The request body: on edit an empty password is left out (keep the stored one). */
export function streamBody(values: StreamFormValues, isNew: boolean): Record<string, unknown> {
  const { password, ...rest } = values;
  return isNew || password !== '' ? values : rest;
}

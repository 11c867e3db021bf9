import { X509Certificate } from 'node:crypto';
import type { ActivityLogStream, CreateActivityLogStreamBody, UpdateActivityLogStreamBody } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { checkEgressUrl, EgressBlockedError, type EgressPolicy } from '#src/lib/egress/index.js';
import { FIELD_MESSAGES } from '#src/lib/field-messages.js';
import { fieldProblem, HttpProblem } from '#src/lib/problem.js';
import type { EventActor } from '#src/modules/events/event-actor.js';
import { EventsRepo } from '#src/modules/events/events.repo.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { type StreamChange, type StreamRow, StreamsRepo, streamConsumerName } from './streams.repo.js';

export const streamNotFound = (id: number) =>
  new HttpProblem(404, 'activity_log_stream.not_found', `Activity log stream ${id} does not exist.`);

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The destination's CA bundle: '' for none, else one or more PEM certificates that must all
 * parse (a typo here would otherwise only show as TLS failures at send time).
 */
export function checkCertificate(pem: string): string {
  const text = pem.trim();
  if (text === '') return '';
  const blocks = text.match(PEM_BLOCK) ?? [];
  const rest = text.replace(PEM_BLOCK, '').trim();
  const parses = (block: string) => {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  };
  if (blocks.length === 0 || rest !== '' || !blocks.every(parses)) {
    throw fieldProblem('certificate', 'certificate.pem', FIELD_MESSAGES['certificate.pem'] ?? 'Invalid certificate');
  }
  return `${blocks.join('\n')}\n`;
}

/** The URL as events show it: no query string or fragment (they may carry tokens). */
export function urlForEvents(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

const iso = (d: Date | null) => d?.toISOString();

export function toStream(row: StreamRow, lag: number): ActivityLogStream {
  const lastSuccess = iso(row.lastSuccessAt);
  const lastErrorAt = iso(row.lastErrorAt);
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    url: row.url,
    username: row.username,
    has_password: row.passwordEnc !== '',
    certificate: row.certificate,
    state: {
      ...(lastSuccess ? { last_success_at: lastSuccess } : {}),
      ...(lastErrorAt ? { last_error_at: lastErrorAt } : {}),
      ...(row.lastError ? { last_error: row.lastError } : {}),
      lag,
    },
  };
}

const streamObject = (row: StreamRow) => ({ type: 'activity_log_stream', id: row.id, name: row.name });

export interface StreamsServiceOptions {
  secrets: SecretBox;
  /** The admin's egress allow-list (settings `egress_allow_cidrs`). */
  egressPolicy: () => Promise<EgressPolicy>;
}

/**
 * Activity-log stream destinations (spec §3, §7 `/activity_log_stream`; enterprise-only, §6).
 * Each destination is also the event consumer `stream:<id>`, created at the head of the log: it
 * receives what happens from its creation on, not the history.
 */
export class StreamsService {
  readonly #repo: StreamsRepo;

  constructor(
    private readonly db: Db,
    private readonly options: StreamsServiceOptions,
  ) {
    this.#repo = new StreamsRepo(db);
  }

  async list(): Promise<ActivityLogStream[]> {
    const [rows, cursors] = await Promise.all([this.#repo.list(), this.#repo.cursors()]);
    const events = new EventsRepo(this.db);
    return Promise.all(
      rows.map(async (row) => {
        const cursor = cursors.get(row.id);
        return toStream(row, cursor ? await events.countAfter(cursor) : 0);
      }),
    );
  }

  /** Events recorded after the destination's cursor: what it has still to receive. */
  async #lag(id: number): Promise<number> {
    const cursor = await this.#repo.cursor(id);
    return cursor ? new EventsRepo(this.db).countAfter(cursor) : 0;
  }

  /** Save-time SSRF check (the sender checks again on every request, after DNS resolution). */
  async #checkUrl(url: string): Promise<void> {
    try {
      await checkEgressUrl(url, await this.options.egressPolicy());
    } catch (error) {
      if (error instanceof EgressBlockedError) {
        if (error.reason === 'unresolvable')
          throw fieldProblem('url', 'url.unresolvable', FIELD_MESSAGES['url.unresolvable'] ?? error.message);
        throw fieldProblem('url', 'url.blocked', FIELD_MESSAGES['url.blocked'] ?? 'Address not allowed');
      }
      throw error;
    }
  }

  async create(actor: EventActor, body: CreateActivityLogStreamBody): Promise<ActivityLogStream> {
    const certificate = checkCertificate(body.certificate);
    await this.#checkUrl(body.url);
    const row = await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const created = await new StreamsRepo(tx).insert({
        kind: body.kind,
        name: body.name,
        url: body.url,
        username: body.username,
        passwordEnc: body.password === '' ? '' : this.options.secrets.encrypt(body.password),
        certificate,
      });
      const events = new EventsRepo(tx);
      await events.ensureConsumer(streamConsumerName(created.id), await events.headCursor());
      await recordEvent(tx, {
        type: 'activity_log_stream.created',
        actor,
        object: streamObject(created),
        details: { kind: created.kind, url: urlForEvents(created.url), username: created.username, has_certificate: certificate !== '' },
      });
      return created;
    });
    return toStream(row, await this.#lag(row.id));
  }

  async update(actor: EventActor, id: number, body: UpdateActivityLogStreamBody): Promise<ActivityLogStream> {
    const certificate = checkCertificate(body.certificate);
    if (!(await this.#repo.get(id))) throw streamNotFound(id);
    await this.#checkUrl(body.url);
    const row = await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const repo = new StreamsRepo(tx);
      const before = await repo.getForUpdate(id);
      if (!before) throw streamNotFound(id);
      const change: StreamChange = { kind: body.kind, name: body.name, url: body.url, username: body.username, certificate };
      if (body.password !== undefined) change.passwordEnc = body.password === '' ? '' : this.options.secrets.encrypt(body.password);
      const changed = [
        ...(['kind', 'name', 'url', 'username', 'certificate'] as const).filter((k) => before[k] !== change[k]),
        ...(body.password !== undefined ? ['password'] : []),
      ];
      const after = (await repo.update(id, change)) ?? before;
      await recordEvent(tx, {
        type: 'activity_log_stream.modified',
        actor,
        object: streamObject(after),
        details: { kind: after.kind, url: urlForEvents(after.url), changed },
      });
      return after;
    });
    return toStream(row, await this.#lag(id));
  }

  async delete(actor: EventActor, id: number): Promise<void> {
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const repo = new StreamsRepo(tx);
      const row = await repo.getForUpdate(id);
      if (!row) throw streamNotFound(id);
      await repo.delete(id);
      await new EventsRepo(tx).deleteConsumer(streamConsumerName(id));
      await recordEvent(tx, {
        type: 'activity_log_stream.deleted',
        actor,
        object: streamObject(row),
        details: { kind: row.kind, url: urlForEvents(row.url) },
      });
    });
  }
}

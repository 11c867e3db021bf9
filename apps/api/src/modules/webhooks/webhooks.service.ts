import type { CreateWebhookBody, EventType, UpdateWebhookBody, Webhook, WebhookAttempt, WebhookDeliveryQueued } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { checkEgressUrl, EgressBlockedError } from '#src/lib/egress/index.js';
import { FIELD_MESSAGES } from '#src/lib/field-messages.js';
import { fieldProblem, HttpProblem } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent, toEventRow } from '#src/modules/events/record-event.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { type WebhookAttemptRow, type WebhookRecord, type WebhookRow, WebhooksRepo } from './webhooks.repo.js';
import { buildPayloads } from './webhook-payload.js';

export const toWebhook = (w: WebhookRecord): Webhook => ({
  id: w.id,
  url: w.url,
  description: w.description,
  triggers: w.triggers as Webhook['triggers'],
  enabled: w.enabled,
  created_at: w.createdAt.toISOString(),
  ...(w.lastAttemptAt ? { last_attempt_at: w.lastAttemptAt.toISOString() } : {}),
  ...(w.lastOutcome ? { last_status: w.lastOutcome } : {}),
});

export const toAttempt = (a: WebhookAttemptRow): WebhookAttempt => ({
  id: a.id,
  delivery_id: a.deliveryId,
  event_id: a.eventId,
  event_type: a.eventType,
  attempt: a.attempt,
  attempted_at: a.attemptedAt.toISOString(),
  duration_ms: a.durationMs,
  ...(a.statusCode !== null ? { status_code: a.statusCode } : {}),
  ...(a.error !== null ? { error: a.error } : {}),
  ...(a.responseExcerpt !== null ? { response_excerpt: a.responseExcerpt } : {}),
  outcome: a.outcome,
});

const webhookNotFound = (id: number) => new HttpProblem(404, 'webhook.not_found', `Webhook ${id} does not exist.`);

/** The object of a webhook's events (the URL names it: webhooks have no other name). */
const objectOf = (w: Pick<WebhookRow, 'id' | 'url'>) => ({ type: 'webhook', id: w.id, name: w.url });

/**
 * Webhooks (spec §3, §5, §7): CRUD, the delivery log, test events and redeliveries. Delivery
 * itself runs in the jobs (`jobs/webhook-fanout.ts`, `jobs/webhook-delivery.ts`).
 */
export class WebhooksService {
  readonly #repo: WebhooksRepo;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.#repo = new WebhooksRepo(db);
  }

  async list(): Promise<Webhook[]> {
    return (await this.#repo.list()).map(toWebhook);
  }

  async get(id: number): Promise<Webhook> {
    return toWebhook(await this.#require(id));
  }

  async create(actor: SignedInActor, body: CreateWebhookBody): Promise<Webhook> {
    await this.#checkUrl(body.url);
    const row = await this.#transaction(async (tx) => {
      const created = await new WebhooksRepo(tx).insert({
        url: body.url,
        description: body.description,
        tokenEnc: this.secrets.encrypt(body.token),
        triggers: uniqueTriggers(body.triggers),
        enabled: body.enabled,
      });
      await recordEvent(tx, {
        type: 'webhook.created',
        actor: userActor(actor),
        object: objectOf(created),
        details: { triggers: created.triggers, enabled: created.enabled },
      });
      return created;
    });
    return this.get(row.id);
  }

  async update(actor: SignedInActor, id: number, body: UpdateWebhookBody): Promise<Webhook> {
    await this.#checkUrl(body.url);
    await this.#transaction(async (tx) => {
      const repo = new WebhooksRepo(tx);
      const before = await repo.findForUpdate(id);
      if (!before) throw webhookNotFound(id);
      const triggers = uniqueTriggers(body.triggers);
      await repo.update(id, {
        url: body.url,
        description: body.description,
        triggers,
        enabled: body.enabled,
        ...(body.token !== undefined ? { tokenEnc: this.secrets.encrypt(body.token) } : {}),
      });
      if (before.enabled && !body.enabled) await repo.stopPending(id);
      const changed = [
        before.url !== body.url && 'url',
        before.description !== body.description && 'description',
        before.triggers.join(',') !== triggers.join(',') && 'triggers',
        before.enabled !== body.enabled && 'enabled',
        body.token !== undefined && 'token',
      ].filter((f): f is string => typeof f === 'string');
      await recordEvent(tx, {
        type: 'webhook.modified',
        actor: userActor(actor),
        object: objectOf({ id, url: body.url }),
        details: { changed, ...(changed.includes('url') ? { previous_url: before.url } : {}) },
      });
    });
    return this.get(id);
  }

  /** Enables or disables; disabling stops the webhook's pending deliveries. */
  async setEnabled(actor: SignedInActor, id: number, enabled: boolean): Promise<Webhook> {
    await this.#transaction(async (tx) => {
      const repo = new WebhooksRepo(tx);
      const before = await repo.findForUpdate(id);
      if (!before) throw webhookNotFound(id);
      if (before.enabled === enabled) return;
      await repo.update(id, { enabled });
      if (!enabled) await repo.stopPending(id);
      await recordEvent(tx, { type: enabled ? 'webhook.enabled' : 'webhook.disabled', actor: userActor(actor), object: objectOf(before) });
    });
    return this.get(id);
  }

  async delete(actor: SignedInActor, id: number): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new WebhooksRepo(tx);
      const before = await repo.findForUpdate(id);
      if (!before) throw webhookNotFound(id);
      // Its deliveries and their log go with it (foreign keys cascade).
      await repo.delete(id);
      await recordEvent(tx, { type: 'webhook.deleted', actor: userActor(actor), object: objectOf(before) });
    });
  }

  async deliveries(id: number): Promise<WebhookAttempt[]> {
    await this.#require(id);
    return (await this.#repo.attempts(id)).map(toAttempt);
  }

  /**
   * "Send test event": records `webhook.test_sent` and queues it to this webhook only (it is no
   * trigger, so the fan-out never sends it to others). A disabled webhook can be tested too: the
   * admin asked for this one delivery (docs/webhooks.md).
   */
  async sendTest(actor: SignedInActor, id: number): Promise<WebhookDeliveryQueued> {
    return this.#transaction(async (tx) => {
      const repo = new WebhooksRepo(tx);
      const webhook = await repo.findForUpdate(id);
      if (!webhook) throw webhookNotFound(id);
      const event: DomainEvent = {
        type: 'webhook.test_sent' satisfies EventType,
        actor: userActor(actor),
        object: objectOf(webhook),
        details: { test: true },
      };
      const row = await repo.insertEvent(toEventRow(event));
      const [payload] = await buildPayloads(tx, [row]);
      const deliveryId = await repo.insertDelivery({ webhookId: id, eventId: row.id, eventType: row.type, payload });
      return { delivery_id: deliveryId };
    });
  }

  /** Sends a delivery again from the start, with the same `webhook-id`. */
  async redeliver(actor: SignedInActor, id: number, deliveryId: number): Promise<WebhookDeliveryQueued> {
    return this.#transaction(async (tx) => {
      const repo = new WebhooksRepo(tx);
      const webhook = await repo.findForUpdate(id);
      if (!webhook) throw webhookNotFound(id);
      const delivery = await repo.redeliver(id, deliveryId);
      if (!delivery) throw new HttpProblem(404, 'webhook.delivery_not_found', `Delivery ${deliveryId} of webhook ${id} does not exist.`);
      await recordEvent(tx, {
        type: 'webhook.redelivered',
        actor: userActor(actor),
        object: objectOf(webhook),
        details: { delivery_id: deliveryId, event_id: delivery.eventId, event_type: delivery.eventType },
      });
      return { delivery_id: deliveryId };
    });
  }

  async #require(id: number): Promise<WebhookRecord> {
    const row = await this.#repo.find(id);
    if (!row) throw webhookNotFound(id);
    return row;
  }

  /** The SSRF guard on save: a URL whose host is blocked (and not allow-listed) is a 400 at `url`. */
  async #checkUrl(url: string): Promise<void> {
    const { egressAllowCidrs } = await new SettingsRepo(this.db).get();
    try {
      await checkEgressUrl(url, { allowCidrs: egressAllowCidrs });
    } catch (error) {
      if (error instanceof EgressBlockedError) {
        if (error.reason === 'unresolvable')
          throw fieldProblem('url', 'url.unresolvable', FIELD_MESSAGES['url.unresolvable'] ?? error.message);
        throw fieldProblem('url', 'url.blocked', error.message);
      }
      throw error;
    }
  }

  #transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((raw) => fn(raw as unknown as Db));
  }
}

/** Triggers without repeats. */
function uniqueTriggers(triggers: readonly string[]): string[] {
  return [...new Set(triggers)];
}

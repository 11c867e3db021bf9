import type { Db } from '#src/db/client.js';
import type { MailService, MailTemplate } from '#src/modules/mail/mail.service.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { isSmtpConfigured } from '#src/modules/settings/settings.service.js';
import { type AdminRecipient, GatewayNotificationsRepo, type NotifiedGateway } from './gateway-notifications.repo.js';

/** One minute: the unit of the inactivity threshold setting. */
export const THRESHOLD_UNIT_MS = 60_000;

export interface GatewayCheckResult {
  /** Gateways whose disconnect mail was queued by this check. */
  disconnected: number;
  /** Gateways found back after a disconnect mail (a reconnect mail was queued when enabled). */
  reconnected: number;
}

/** The console page of the gateway's location: PUBLIC_URL + path (just the path without PUBLIC_URL). */
export const gatewayPageUrl = (publicUrl: string | undefined, locationId: number) =>
  `${(publicUrl ?? '').replace(/\/+$/, '')}/locations/${locationId}/gateway`;

const gatewayLabel = (g: NotifiedGateway) => {
  const name = g.name || g.hostname || `#${g.id}`;
  return g.hostname && g.hostname !== name ? `${name} (${g.hostname})` : name;
};

/**
 * One check of gateway notifications (docs/gateways.md#notifications), in one transaction: claims
 * the gateways disconnected longer than the threshold and those back after a disconnect mail,
 * and queues one mail per gateway and administrator in the mail outbox (sent by the mail job only
 * if the transaction commits). A claim is a conditional UPDATE, so the mail of one disconnection
 * is queued once, across checks, restarts and replicas. Nothing is claimed for a disabled
 * notification or while SMTP is not configured, except that a gateway back after a disconnect
 * mail always loses its mark (so its next disconnection is mailed again).
 */
export class GatewayNotifier {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    private readonly publicUrl: string | undefined,
    private readonly unitMs: number = THRESHOLD_UNIT_MS,
  ) {}

  async check(): Promise<GatewayCheckResult> {
    const settings = await new SettingsRepo(this.db).get();
    const smtp = isSmtpConfigured(settings);
    const mailDisconnects = smtp && settings.gatewayDisconnectNotificationsEnabled;
    const mailReconnects = smtp && settings.gatewayReconnectNotificationsEnabled;
    return this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const repo = new GatewayNotificationsRepo(tx);
      // Returns first: a gateway back and gone again since its mail gets both mails in this check.
      const reconnected = await repo.claimReconnected();
      const disconnected = mailDisconnects ? await repo.claimDisconnected(settings.gatewayInactivityThreshold * this.unitMs) : [];
      const mails: [MailTemplate, NotifiedGateway][] = [
        ...(mailReconnects ? reconnected.map((g) => ['gateway_reconnected', g] as [MailTemplate, NotifiedGateway]) : []),
        ...disconnected.map((g) => ['gateway_disconnected', g] as [MailTemplate, NotifiedGateway]),
      ];
      if (mails.length > 0) {
        const admins = await repo.admins();
        for (const [template, gateway] of mails) await this.#enqueue(tx, template, gateway, admins);
      }
      return { disconnected: disconnected.length, reconnected: reconnected.length };
    });
  }

  async #enqueue(tx: Db, template: MailTemplate, gateway: NotifiedGateway, admins: AdminRecipient[]): Promise<void> {
    const data = {
      gateway: gatewayLabel(gateway),
      location: gateway.location_name || `#${gateway.location_id}`,
      since: gateway.at,
      url: gatewayPageUrl(this.publicUrl, gateway.location_id),
    };
    for (const admin of admins) await this.mail.enqueue(tx, { to: admin.email, template, locale: admin.language, data });
  }
}

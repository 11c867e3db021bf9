import { arch, platform, release } from 'node:os';
import type { SupportConfiguration } from '@palisade/contracts';
import type { DatabaseHandle } from '#src/db/client.js';
import type { LogRing } from '#src/lib/log-ring.js';
import { APP_VERSION } from '#src/lib/route-schemas.js';
import type { ModuleFlags } from '#src/modules/settings/settings.service.js';
import { SupportRepo } from './support.repo.js';

/** A gateway counts as connected while it holds a stream and was heard from this recently (as the gateways list). */
const CONNECTED_WITHIN_SECONDS = 90;

/**
 * Support data for a bug report (docs/support.md): the instance's configuration with every secret
 * redacted (redaction.ts) and the last log lines from the in-memory ring (lib/log-ring.ts).
 */
export class SupportService {
  readonly #repo: SupportRepo;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly logs: LogRing,
    private readonly supportEmail: string | undefined,
  ) {
    this.#repo = new SupportRepo(database);
  }

  async configuration(modules: ModuleFlags): Promise<SupportConfiguration> {
    const [serverVersion, migration, settingsRow, providers, counts, gatewayRows] = await Promise.all([
      this.#repo.serverVersion(),
      this.#repo.migrationLevel(),
      this.#repo.settings(),
      this.#repo.externalProviders(),
      this.#repo.counts(),
      this.#repo.gateways(),
    ]);
    const now = Date.now();
    const gateways = gatewayRows.map((g) => ({
      id: g.id,
      name: g.name,
      location_id: g.locationId,
      location_name: g.locationName,
      hostname: g.hostname,
      version: g.version,
      connected: g.streamId !== null && g.lastSeenAt !== null && now - g.lastSeenAt.getTime() < CONNECTED_WITHIN_SECONDS * 1000,
      state: g.state,
      ...(g.connectedAt ? { connected_at: g.connectedAt.toISOString() } : {}),
      ...(g.disconnectedAt ? { disconnected_at: g.disconnectedAt.toISOString() } : {}),
      ...(g.lastSeenAt ? { last_seen_at: g.lastSeenAt.toISOString() } : {}),
    }));
    return {
      generated_at: new Date(now).toISOString(),
      palisade_version: APP_VERSION,
      node_version: process.version,
      os: { platform: platform(), release: release(), arch: arch() },
      database: {
        kind: this.database.kind === 'pglite' ? 'embedded' : 'postgresql',
        server_version: serverVersion,
        migrations_applied: migration.applied,
        migration_level: migration.level,
      },
      modules: { wireguard: modules.wireguard, webhooks: modules.webhooks, worker: modules.worker, openid: modules.openid },
      settings: settingsRow,
      external_providers: providers,
      counts: {
        users: counts.users,
        user_devices: counts.userDevices,
        network_devices: counts.networkDevices,
        locations: counts.locations,
        gateways: gateways.length,
        gateways_connected: gateways.filter((g) => g.connected).length,
      },
      gateways,
      ...(this.supportEmail ? { support_email: this.supportEmail } : {}),
    };
  }

  /** The kept log lines, oldest first, one per line. */
  logText(): string {
    const lines = this.logs.lines();
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  get address(): string | undefined {
    return this.supportEmail;
  }
}

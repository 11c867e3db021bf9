import type { ExternalProvider } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { conflict, notFound } from '#src/lib/problem.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { withEvents } from '#src/modules/events/record-event.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { changedFields, type ProviderBody, toExternalProvider, toProviderValues } from './external-idp.mapper.js';
import { ExternalIdpRepo, type ExternalProviderRow, type ExternalProviderValues } from './external-idp.repo.js';

const providerObject = (row: Pick<ExternalProviderRow, 'id' | 'name'>) => ({ type: 'external_provider', id: row.id, name: row.name });

const providerNotFound = () => notFound('external_provider.not_found', 'No external OpenID provider with this name.');
const providerExists = () =>
  conflict('external_provider.exists', 'An external OpenID provider is already configured: edit or delete it first.');

/** `/openid/provider` (spec §7): the company's identity provider, one at a time. */
export class ExternalIdpService {
  readonly #repo: ExternalIdpRepo;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    /** Directory sync is an enterprise feature: turning it on needs enterprise features on (docs/licensing.md). */
    private readonly enterpriseCheck: () => void | Promise<void> = () => undefined,
  ) {
    this.#repo = new ExternalIdpRepo(db);
  }

  async current(): Promise<ExternalProvider | null> {
    const row = await this.#repo.current();
    return row ? toExternalProvider(row) : null;
  }

  async create(actor: Actor, body: ProviderBody): Promise<ExternalProvider> {
    if (body.enable_directory_sync) await this.enterpriseCheck();
    const row = await withEvents(this.db, async (tx) => {
      const repo = new ExternalIdpRepo(tx);
      // One provider at a time: serialise creations so two admins cannot both add one.
      await repo.lockCreation();
      if (await repo.current()) throw providerExists();
      const created = await repo.insert(toProviderValues(body, this.secrets) as ExternalProviderValues);
      return {
        result: created,
        events: [
          {
            type: 'external_provider.created',
            actor: userActor(actor),
            object: providerObject(created),
            details: { kind: created.kind, base_url: created.baseUrl },
          },
        ],
      };
    });
    return toExternalProvider(row);
  }

  async update(actor: Actor, name: string, body: ProviderBody): Promise<ExternalProvider> {
    const row = await withEvents(this.db, async (tx) => {
      const repo = new ExternalIdpRepo(tx);
      const before = await repo.findByName(name);
      if (!before) throw providerNotFound();
      // Turning directory sync on is gated; a provider that already syncs stays editable (docs/licensing.md).
      if (body.enable_directory_sync && !before.enableDirectorySync) await this.enterpriseCheck();
      if (body.name !== before.name && (await repo.findByName(body.name))) throw providerExists();
      const after = await repo.update(before.id, toProviderValues(body, this.secrets));
      if (!after) throw providerNotFound();
      const changed = changedFields(before, after);
      return {
        result: after,
        events:
          changed.length === 0
            ? []
            : [
                {
                  type: 'external_provider.modified' as const,
                  actor: userActor(actor),
                  object: providerObject(after),
                  details: { changed },
                },
              ],
      };
    });
    return toExternalProvider(row);
  }

  async delete(actor: Actor, name: string): Promise<void> {
    await withEvents(this.db, async (tx) => {
      const repo = new ExternalIdpRepo(tx);
      const row = await repo.findByName(name);
      if (!row) throw providerNotFound();
      await repo.delete(row.id);
      return { result: undefined, events: [{ type: 'external_provider.deleted', actor: userActor(actor), object: providerObject(row) }] };
    });
  }
}

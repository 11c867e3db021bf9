import { type AclAlias, type AclAliasBodyParsed, type AclRuleRef, portsNeedTcpUdp } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { FIELD_MESSAGES } from '#src/lib/field-messages.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { AclAliasesRepo, type AliasContent, type AliasRow } from './acl-aliases.repo.js';

export const aliasNotFound = (id: number) => new HttpProblem(404, 'acl.alias_not_found', `ACL alias ${id} does not exist.`);

/** 409 `acl.alias_in_use`, its body listing the rules (pending or deployed) that use the alias. */
export class AliasInUseProblem extends HttpProblem {
  constructor(readonly rules: AclRuleRef[]) {
    super(409, 'acl.alias_in_use', 'The alias is used by ACL rules; remove it from them first.');
  }
}

/**
 * A component alias is merged into the manual selector of each rule using it: ports there need TCP
 * or UDP (docs/acl.md). 400 naming the first rule the alias content would break.
 */
async function checkComponentUse(repo: AclAliasesRepo, aliasId: number, content: AliasContent): Promise<void> {
  if (content.kind !== 'component') return;
  const broken = (await repo.selectorsWithout(aliasId)).find((r) =>
    portsNeedTcpUdp([...r.ports, ...content.ports], [...r.protocols, ...content.protocols]),
  );
  if (!broken) return;
  const code = 'acl.ports_need_tcp_udp';
  throw new HttpProblem(400, 'validation.failed', `ACL rule "${broken.name}" would have ports with ICMP as its only protocol.`, [
    { path: 'protocols', code, message: FIELD_MESSAGES[code] ?? code, params: { rule: broken.name } },
  ]);
}

const aliasObject = (id: number, name: string) => ({ type: 'acl_alias', id, name });

const contentOf = (body: AclAliasBodyParsed): AliasContent => ({
  name: body.name,
  kind: body.kind,
  destinations: [...new Set(body.destinations)],
  ports: [...new Set(body.ports)],
  protocols: [...new Set(body.protocols)],
});

const toAlias = (row: AliasRow, rules: AclRuleRef[]): AclAlias => ({
  id: row.id,
  ...(row.parentId !== null ? { parent_id: row.parentId } : {}),
  name: row.name,
  kind: row.kind,
  state: row.state,
  destinations: row.destinations,
  ports: row.ports,
  protocols: row.protocols as AclAlias['protocols'],
  rules,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/**
 * ACL aliases (spec §4, §5, §7; docs/acl.md). A new alias is deployed at once (nothing deployed
 * uses it yet). Changing an alias that a deployed rule uses creates or updates its pending child,
 * which deploying copies onto it; an alias no deployed rule uses is changed in place. Each alias
 * lists the deployed rules using it: what deploying its change affects.
 */
export class AclAliasesService {
  readonly #repo: AclAliasesRepo;

  constructor(private readonly db: Db) {
    this.#repo = new AclAliasesRepo(db);
  }

  async list(): Promise<AclAlias[]> {
    return this.#view(await this.#repo.list());
  }

  async get(id: number): Promise<AclAlias> {
    const row = await this.#repo.find(id);
    if (!row) throw aliasNotFound(id);
    const [view] = await this.#view([row]);
    if (!view) throw aliasNotFound(id);
    return view;
  }

  async create(actor: SignedInActor, body: AclAliasBodyParsed): Promise<AclAlias> {
    const id = await this.#transaction(async (tx) => {
      const content = contentOf(body);
      const created = await new AclAliasesRepo(tx).insert(null, 'applied', content);
      await recordEvent(tx, {
        type: 'acl_alias.created',
        actor: userActor(actor),
        object: aliasObject(created, content.name),
        details: { kind: content.kind },
      });
      return created;
    });
    return this.get(id);
  }

  /** Answers the row holding the change: the pending child, or the alias itself when changed in place. */
  async update(actor: SignedInActor, id: number, body: AclAliasBodyParsed): Promise<AclAlias> {
    const changed = await this.#transaction(async (tx) => {
      const repo = new AclAliasesRepo(tx);
      const [row] = await repo.lock([id]);
      if (!row) throw aliasNotFound(id);
      const content = contentOf(body);
      const deployedId = row.parentId ?? row.id;
      await checkComponentUse(repo, deployedId, content);
      const child = row.parentId === null ? await repo.childOf(row.id) : row;
      let target = child?.id ?? row.id;
      if (child) await repo.update(child.id, content);
      else if (((await repo.rulesUsing([row.id], true)).get(row.id) ?? []).length > 0)
        target = await repo.insert(row.id, 'changed', content);
      else await repo.update(row.id, content);
      await recordEvent(tx, {
        type: 'acl_alias.modified',
        actor: userActor(actor),
        object: aliasObject(deployedId, content.name),
        details: { pending: target !== deployedId },
      });
      return target;
    });
    return this.get(changed);
  }

  /**
   * A pending change is discarded. A deployed alias is deleted unless a rule (pending or deployed)
   * uses it: then 409 listing those rules.
   */
  async delete(actor: SignedInActor, id: number): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new AclAliasesRepo(tx);
      const [row] = await repo.lock([id]);
      if (!row) throw aliasNotFound(id);
      if (row.parentId !== null) {
        await repo.delete(row.id);
        await recordEvent(tx, { type: 'acl_alias.discarded', actor: userActor(actor), object: aliasObject(row.parentId, row.name) });
        return;
      }
      const users = (await repo.rulesUsing([row.id], false)).get(row.id) ?? [];
      if (users.length > 0) throw new AliasInUseProblem(users);
      await repo.delete(row.id);
      await recordEvent(tx, { type: 'acl_alias.deleted', actor: userActor(actor), object: aliasObject(row.id, row.name) });
    });
  }

  /** Deploys pending alias changes (child ids), all or none. */
  async apply(actor: SignedInActor, ids: readonly number[]): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new AclAliasesRepo(tx);
      const pending = await this.#lockPending(repo, ids);
      const affected = await repo.rulesUsing(
        pending.map((c) => c.parentId as number),
        true,
      );
      for (const child of pending) {
        const parentId = child.parentId as number;
        await checkComponentUse(repo, parentId, child);
        await repo.update(parentId, {
          name: child.name,
          kind: child.kind,
          destinations: child.destinations,
          ports: child.ports,
          protocols: child.protocols,
        });
        await repo.delete(child.id);
        await recordEvent(tx, {
          type: 'acl_alias.applied',
          actor: userActor(actor),
          object: aliasObject(parentId, child.name),
          details: { rules: (affected.get(parentId) ?? []).map((r) => r.id) },
        });
      }
    });
  }

  /** Drops pending alias changes (child ids), all or none. */
  async discard(actor: SignedInActor, ids: readonly number[]): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new AclAliasesRepo(tx);
      for (const child of await this.#lockPending(repo, ids)) {
        await repo.delete(child.id);
        await recordEvent(tx, {
          type: 'acl_alias.discarded',
          actor: userActor(actor),
          object: aliasObject(child.parentId as number, child.name),
        });
      }
    });
  }

  /**
   * The listed alias changes, locked with their deployed aliases in one statement in id order (a
   * parent before its child, as a change of a deployed alias locks them; deploying rewrites the
   * parent, so a rule naming it waits). 404 when one does not exist, 400 when one is not pending.
   */
  async #lockPending(repo: AclAliasesRepo, ids: readonly number[]): Promise<AliasRow[]> {
    const wanted = [...new Set(ids)];
    const parentIds = (await repo.list(wanted)).flatMap((r) => (r.parentId !== null ? [r.parentId] : []));
    const wantedSet = new Set(wanted);
    const rows = (await repo.lock([...new Set([...wanted, ...parentIds])])).filter((r) => wantedSet.has(r.id));
    const found = new Set(rows.map((r) => r.id));
    const missing = wanted.find((id) => !found.has(id));
    if (missing !== undefined) throw aliasNotFound(missing);
    const deployed = rows.find((r) => r.parentId === null);
    if (deployed) throw new HttpProblem(400, 'acl.not_pending', `ACL alias ${deployed.id} has no pending change to deploy or discard.`);
    return rows;
  }

  /** Each alias with the deployed rules using its deployed version. */
  async #view(rows: AliasRow[]): Promise<AclAlias[]> {
    const deployedIds = [...new Set(rows.map((r) => r.parentId ?? r.id))];
    const rules = await this.#repo.rulesUsing(deployedIds, true);
    return rows.map((r) => toAlias(r, rules.get(r.parentId ?? r.id) ?? []));
  }

  #transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((raw) => fn(raw as unknown as Db));
  }
}

import type { AclRule, AclRuleBodyParsed } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { resolveRuleBody } from './acl-references.js';
import { toAclRules } from './acl-rule-view.js';
import { AclRulesRepo, type RuleRecord } from './acl-rules.repo.js';

export const ruleNotFound = (id: number) => new HttpProblem(404, 'acl.rule_not_found', `ACL rule ${id} does not exist.`);

/** The activity-log object of a rule: the deployed rule's id for a pending change of it. */
const ruleObject = (id: number, name: string) => ({ type: 'acl_rule', id, name });

const isPending = (r: { state: string }) => r.state !== 'applied';

/**
 * ACL rules (spec §4, §5, §7; docs/acl.md): a new rule is pending until deployed; changing or
 * deleting a deployed rule creates or replaces its pending child (`modified` / `deleted`), which
 * deploying copies onto the deployed rule (which keeps its id) or discarding drops.
 */
export class AclRulesService {
  readonly #repo: AclRulesRepo;

  constructor(private readonly db: Db) {
    this.#repo = new AclRulesRepo(db);
  }

  async list(): Promise<AclRule[]> {
    const all = await this.#repo.load();
    return toAclRules(all, []);
  }

  async get(id: number): Promise<AclRule> {
    const rule = await this.#repo.find(id);
    if (!rule) throw ruleNotFound(id);
    const parent = rule.parentId !== null ? await this.#repo.find(rule.parentId) : undefined;
    const [view] = toAclRules([rule], parent ? [parent] : []);
    if (!view) throw ruleNotFound(id);
    return view;
  }

  async create(actor: SignedInActor, body: AclRuleBodyParsed): Promise<AclRule> {
    const id = await this.#transaction(async (tx) => {
      const content = await resolveRuleBody(tx, body);
      const created = await new AclRulesRepo(tx).insert(null, 'new', content);
      await recordEvent(tx, { type: 'acl_rule.created', actor: userActor(actor), object: ruleObject(created, content.name) });
      return created;
    });
    return this.get(id);
  }

  /**
   * A new rule or a pending change is edited in place (a pending deletion becomes a modification);
   * a deployed rule gets a pending child. Answers the row holding the change.
   */
  async update(actor: SignedInActor, id: number, body: AclRuleBodyParsed): Promise<AclRule> {
    const changed = await this.#transaction(async (tx) => {
      const repo = new AclRulesRepo(tx);
      const [row] = await repo.lock([id]);
      if (!row) throw ruleNotFound(id);
      const content = await resolveRuleBody(tx, body);
      let target = row.id;
      if (row.state === 'applied') {
        const child = await repo.childOf(row.id);
        if (child) {
          await repo.update(child.id, content, 'modified');
          target = child.id;
        } else {
          target = await repo.insert(row.id, 'modified', content);
        }
      } else {
        await repo.update(row.id, content, row.state === 'new' ? 'new' : 'modified');
      }
      await recordEvent(tx, {
        type: 'acl_rule.modified',
        actor: userActor(actor),
        object: ruleObject(row.parentId ?? row.id, content.name),
        details: { pending_id: target },
      });
      return target;
    });
    return this.get(changed);
  }

  /** A deployed rule gets a pending deletion; a pending row (new rule or pending change) is discarded. */
  async delete(actor: SignedInActor, id: number): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new AclRulesRepo(tx);
      const [row] = await repo.lock([id]);
      if (!row) throw ruleNotFound(id);
      if (isPending(row)) {
        await repo.delete(row.id);
        await recordEvent(tx, {
          type: 'acl_rule.discarded',
          actor: userActor(actor),
          object: ruleObject(row.parentId ?? row.id, row.name),
        });
        return;
      }
      const parent = await repo.find(row.id);
      if (!parent) throw ruleNotFound(id);
      const child = await repo.childOf(row.id);
      if (child) await repo.update(child.id, parent.content, 'deleted');
      const target = child ? child.id : await repo.insert(row.id, 'deleted', parent.content);
      await recordEvent(tx, {
        type: 'acl_rule.deleted',
        actor: userActor(actor),
        object: ruleObject(row.id, row.name),
        details: { pending_id: target },
      });
    });
  }

  /** Deploys pending rules (new rules and pending changes), all or none. */
  async apply(actor: SignedInActor, ids: readonly number[]): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new AclRulesRepo(tx);
      const pending = await this.#lockPending(repo, ids);
      const children = pending.filter((r) => r.parentId !== null);
      const parents = await repo.load(children.map((r) => r.parentId as number));
      const parentName = new Map(parents.map((p) => [p.id, p.content.name]));
      for (const rule of pending) {
        const deployedId = rule.parentId ?? rule.id;
        if (rule.state === 'new') await repo.setState(rule.id, 'applied');
        else if (rule.state === 'deleted') await repo.delete(deployedId);
        else {
          await repo.update(deployedId, rule.content);
          await repo.delete(rule.id);
        }
        await recordEvent(tx, {
          type: 'acl_rule.applied',
          actor: userActor(actor),
          object: ruleObject(deployedId, rule.state === 'deleted' ? (parentName.get(deployedId) ?? rule.content.name) : rule.content.name),
          details: { change: rule.state },
        });
      }
    });
  }

  /** Drops pending rules (new rules and pending changes), all or none. */
  async discard(actor: SignedInActor, ids: readonly number[]): Promise<void> {
    await this.#transaction(async (tx) => {
      const repo = new AclRulesRepo(tx);
      const pending = await this.#lockPending(repo, ids);
      for (const rule of pending) {
        await repo.delete(rule.id);
        await recordEvent(tx, {
          type: 'acl_rule.discarded',
          actor: userActor(actor),
          object: ruleObject(rule.parentId ?? rule.id, rule.content.name),
          details: { change: rule.state },
        });
      }
    });
  }

  /**
   * The listed rules, locked with their deployed parents in one statement in id order (a parent
   * before its child, as a change of a deployed rule locks them), so concurrent calls queue
   * instead of deadlocking; 404 when one does not exist, 400 when one is not pending.
   */
  async #lockPending(repo: AclRulesRepo, ids: readonly number[]): Promise<RuleRecord[]> {
    const wanted = [...new Set(ids)];
    const parentIds = (await repo.load(wanted)).flatMap((r) => (r.parentId !== null ? [r.parentId] : []));
    const locked = await repo.lock([...new Set([...wanted, ...parentIds])]);
    const wantedSet = new Set(wanted);
    const rows = locked.filter((r) => wantedSet.has(r.id));
    const found = new Set(rows.map((r) => r.id));
    const missing = wanted.find((id) => !found.has(id));
    if (missing !== undefined) throw ruleNotFound(missing);
    const deployed = rows.find((r) => !isPending(r));
    if (deployed) throw new HttpProblem(400, 'acl.not_pending', `ACL rule ${deployed.id} has no pending change to deploy or discard.`);
    return repo.load(wanted);
  }

  #transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((raw) => fn(raw as unknown as Db));
  }
}

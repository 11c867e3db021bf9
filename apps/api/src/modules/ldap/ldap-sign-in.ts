import { isReservedUsername, usernameSchema } from '@palisade/contracts';
import { AndFilter, type Client, type Entry, EqualityFilter, type Filter, OrFilter } from 'ldapts';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { anonymousActor, type RequestOrigin } from '#src/modules/events/event-actor.js';
import { type DomainEvent, withEvents } from '#src/modules/events/record-event.js';
import { userIdentity, userObject } from '#src/modules/users/users.events.js';
import { type UserRow, UsersRepo } from '#src/modules/users/users.repo.js';
import { bindLdap, bindServiceUser, LdapConnectionError, type LdapTimeouts, ldapFailureReason } from './ldap-client.js';
import { type LdapConfig, loadLdapConfig } from './ldap-config.js';

/** The sign-in could not ask the LDAP server: a clear 503, never a 500 or a wrong-password answer. */
export const ldapUnavailable = (reason: string) =>
  new HttpProblem(503, 'ldap.unavailable', `The LDAP server cannot be reached, so the password cannot be checked: ${reason}`);

/** What LDAP said about a sign-in: `handled: false` when LDAP sign-in is off (local passwords decide). */
export type LdapSignInOutcome = { handled: false } | { handled: true; user: UserRow | undefined; reason?: string };

const first = (entry: Entry, attribute: string): string => {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key ? entry[key] : undefined;
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? '' : Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
};

/**
 * LDAP sign-in (docs/ldap.md): an account linked to an LDAP entry (`users.ldap_dn`) signs in by
 * binding as that entry with the given password; an unknown username that exists in LDAP (under
 * the user search base, in the sync groups when those are set) gets its account created from the
 * entry on the first successful sign-in.
 */
export class LdapSignIn {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox | undefined,
    private readonly timeouts: LdapTimeouts = {},
  ) {}

  /**
   * Checks `password` for `user` (linked to LDAP) or, when `user` is undefined, for the LDAP entry
   * named `login`, creating its account. Throws `ldap.unavailable` (503) when the server cannot be
   * asked.
   */
  async authenticate(login: string, password: string, user: UserRow | undefined, origin: RequestOrigin): Promise<LdapSignInOutcome> {
    if (user && user.ldapDn === null) return { handled: false };
    const config = await loadLdapConfig(this.db, this.secrets);
    if (!config.enabled || config.url === '') return { handled: false };
    if (user?.ldapDn) return { handled: true, user: (await this.#bindAs(config, user.ldapDn, password)) ? user : undefined };
    // Not a valid Palisade username (an unknown email address, say): no entry can become an account.
    if (!usernameSchema.safeParse(login).success) return { handled: true, user: undefined };
    const entry = await this.#findEntry(config, login);
    if (!entry) return { handled: true, user: undefined };
    if (!(await this.#bindAs(config, entry.dn, password))) return { handled: true, user: undefined };
    return this.#createFrom(config, entry, origin);
  }

  /** true when the server accepted the password; false when it refused it. */
  async #bindAs(config: LdapConfig, dn: string, password: string): Promise<boolean> {
    try {
      const client = await bindLdap(config, dn, password, this.timeouts);
      await client.unbind().catch(() => undefined);
      return true;
    } catch (error) {
      if (error instanceof LdapConnectionError && error.invalidCredentials) return false;
      throw ldapUnavailable(ldapFailureReason(error));
    }
  }

  async #findEntry(config: LdapConfig, username: string): Promise<Entry | undefined> {
    let client: Client;
    try {
      client = await bindServiceUser(config, this.timeouts);
    } catch (error) {
      throw ldapUnavailable(ldapFailureReason(error));
    }
    try {
      const attributes = [config.usernameAttr, config.userRdnAttr, 'givenName', 'sn', 'cn', 'mail'];
      const filter = new AndFilter({
        filters: [
          new EqualityFilter({ attribute: 'objectClass', value: config.userObjClass }),
          new EqualityFilter({ attribute: config.usernameAttr, value: username }),
        ],
      });
      const { searchEntries } = await client.search(config.userSearchBase, { scope: 'sub', filter, attributes, sizeLimit: 2 });
      // Two entries with one username: refuse rather than guess which one signs in.
      if (searchEntries.length !== 1) return undefined;
      const entry = searchEntries[0];
      if (!entry || first(entry, config.usernameAttr).toLowerCase() !== username.toLowerCase()) return undefined;
      if (config.syncGroups.length > 0 && !(await this.#inSyncGroups(client, config, entry.dn, username))) return undefined;
      return entry;
    } catch (error) {
      throw ldapUnavailable(ldapFailureReason(error));
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  /** Whether the entry is a member of one of the sync groups (by the group's member attribute). */
  async #inSyncGroups(client: Client, config: LdapConfig, dn: string, username: string): Promise<boolean> {
    // posixGroup's memberUid holds usernames; member / uniqueMember hold DNs.
    const memberValue = config.groupMemberAttr.toLowerCase() === 'memberuid' ? username : dn;
    const filter: Filter = new AndFilter({
      filters: [
        new EqualityFilter({ attribute: 'objectClass', value: config.groupObjClass }),
        new EqualityFilter({ attribute: config.groupMemberAttr, value: memberValue }),
        new OrFilter({ filters: config.syncGroups.map((g) => new EqualityFilter({ attribute: config.groupnameAttr, value: g })) }),
      ],
    });
    const base = config.groupSearchBase || config.userSearchBase;
    const { searchEntries } = await client.search(base, { scope: 'sub', filter, attributes: ['1.1'], sizeLimit: 1 }).catch((error) => {
      // sizeLimit 1 with more than one match still means "a member".
      if ((error as { code?: number }).code === 4) return { searchEntries: [{ dn: '' }] };
      throw error;
    });
    return searchEntries.length > 0;
  }

  async #createFrom(config: LdapConfig, entry: Entry, origin: RequestOrigin): Promise<LdapSignInOutcome> {
    const username = first(entry, config.usernameAttr);
    const email = first(entry, 'mail').trim();
    if (!email || isReservedUsername(username)) return { handled: true, user: undefined, reason: 'ldap_entry_unusable' };
    const cn = first(entry, 'cn');
    const firstName = (first(entry, 'givenName') || cn.split(' ')[0] || username).slice(0, 128);
    const lastName = (first(entry, 'sn') || cn.split(' ').slice(1).join(' ')).slice(0, 128);
    try {
      const created = await withEvents(this.db, async (tx) => {
        const row = await new UsersRepo(tx).insert({
          username,
          firstName,
          lastName,
          email,
          passwordHash: null,
          ldapDn: entry.dn,
          ldapRdn: first(entry, config.userRdnAttr) || username,
        });
        const event: DomainEvent = {
          type: 'user.created',
          actor: anonymousActor(origin),
          object: userObject(row),
          subjectUserId: row.id,
          details: { ...userIdentity(row), source: 'ldap' },
        };
        return { result: row, events: [event] };
      });
      return { handled: true, user: created };
    } catch (error) {
      // The username or the email address belongs to another account: no silent linking.
      if ((error as { code?: string }).code === '23505') return { handled: true, user: undefined, reason: 'ldap_account_conflict' };
      throw error;
    }
  }
}

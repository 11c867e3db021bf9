import type { Db } from '#src/db/client.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { DirectorySyncRepo, type SyncUser } from './directory-sync.repo.js';
import { type DirectoryClient, DirectoryError, type DirectoryUser } from './providers/directory-client.js';
import { syncGroups } from './sync-groups.js';
import { emptySummary, matchesGroup, SYNC_ACTOR, type SyncSettings, type SyncSummary } from './sync-types.js';
import { type KnownUser, syncUserStatus } from './sync-users.js';

/** The skipped changes a summary event lists (the counts are always complete). */
const SKIPPED_SHOWN = 50;

/**
 * The accounts the directory knows: those linked to one of its users (`external_identities`),
 * and those whose email matches a directory user, which get linked now, so a later change of
 * address on either side keeps the link. An account may also carry a sign-in link whose subject
 * is not a directory id (Microsoft's OpenID `sub` is not the Graph id): a link the directory
 * does not list never outweighs a match, and an account counts as gone (`entry` undefined) only
 * when neither its links nor its email are in the directory.
 */
async function matchUsers(db: Db, settings: SyncSettings, entries: DirectoryUser[], summary: SyncSummary): Promise<KnownUser[]> {
  const repo = new DirectorySyncRepo(db);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const known = new Map<number, KnownUser>();
  const linkedSubjects = new Set<string>();
  for (const { subject, ...user } of await repo.linkedUsers(settings.provider)) {
    const entry = byId.get(subject);
    if (entry) linkedSubjects.add(subject);
    if (!known.get(user.id)?.entry) known.set(user.id, { user, entry });
  }
  const byEmail = new Map<string, DirectoryUser>();
  for (const entry of entries) if (entry.email && !linkedSubjects.has(entry.id)) byEmail.set(entry.email.toLowerCase(), entry);
  for (const user of await repo.usersByEmail([...byEmail.keys()])) {
    const entry = byEmail.get(user.email.toLowerCase());
    if (!entry || known.get(user.id)?.entry) continue;
    if (await repo.link(user.id, settings.provider, entry.id, entry.email)) summary.identities_linked++;
    known.set(user.id, { user, entry });
  }
  return [...known.values()];
}

/**
 * One directory sync run (docs/directory-sync.md). Reads the whole directory first, so an
 * unreachable or refusing directory changes nothing; then applies the status rule (sync_target
 * users/all) and the group rule (groups/all), one short transaction per change with its
 * activity-log events, and records `directory.sync_completed` with the counts. Running it again
 * without a change at the directory changes nothing.
 */
export async function runDirectorySync(db: Db, client: DirectoryClient, settings: SyncSettings): Promise<SyncSummary> {
  const summary = emptySummary();
  const entries = await client.listUsers();
  // An empty listing is a misconfiguration (every directory holds at least its administrator),
  // not a reason to treat every linked account as gone.
  if (entries.length === 0) throw new DirectoryError('The directory listed no users; nothing was changed');
  const syncsGroups = settings.target !== 'users';
  const groups = syncsGroups ? (await client.listGroups()).filter((g) => matchesGroup(settings.groupMatch, g.name)) : [];
  summary.directory_users = entries.length;
  summary.directory_groups = groups.length;
  const known = await matchUsers(db, settings, entries, summary);
  const deleted = settings.target === 'groups' ? new Set<number>() : await syncUserStatus(db, known, settings, summary);
  if (syncsGroups) {
    const bySubject = new Map<string, SyncUser>();
    for (const { user, entry } of known) if (entry && !deleted.has(user.id)) bySubject.set(entry.id, user);
    const managed = known.filter(({ user }) => !deleted.has(user.id)).map(({ user }) => user);
    await syncGroups(db, client, groups, bySubject, managed, summary);
  }
  await recordEvent(db, {
    type: 'directory.sync_completed',
    actor: SYNC_ACTOR,
    object: { type: 'external_provider', name: settings.provider },
    details: { ...summary, skipped: summary.skipped.slice(0, SKIPPED_SHOWN), skipped_count: summary.skipped.length },
  });
  return summary;
}

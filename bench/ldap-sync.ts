/**
 * Issue 14 §4: LDAP sync of 10,000 users in 200 groups from slapd (LDAP authoritative).
 *  1. First run (imports every user, group and membership): < 60 s.
 *  2. Ten changes on the LDAP side (first names), then a second run: < 5 s, and it performs only
 *     those ten changes (the appliers count the Palisade changes applied and the LDAP operations).
 * Run: cd bench && npx tsx ldap-sync.ts   (PostgreSQL on 127.0.0.1:5432 and slapd, see README.md)
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client.js';
import { runMigrations } from '../apps/api/src/db/migrate.js';
import { SecretBox } from '../apps/api/src/lib/crypto.js';
import { SYSTEM_ACTOR } from '../apps/api/src/modules/events/event-actor.js';
import { LdapSyncService } from '../apps/api/src/modules/ldap/sync.service.js';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.js';
import { startSlapd } from '../apps/api/test/support/slapd.js';
import { machineInfo, recreateDatabase, round, verdict, writeResult } from './lib/common.js';

const USERS = 10_000;
const GROUPS = 200;
const CHANGES = 10;
const FIRST_TARGET_S = 60;
const SECOND_TARGET_S = 5;

const SECRET = 'bench-secret-key-bench-secret-key-0000';
const url = await recreateDatabase('palisade_bench_ldap_sync');
const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 6 });
await runMigrations(database);
await bootstrap(database.db, 'Bench-Admin-1!');
const secrets = SecretBox.fromSecret(SECRET);
const machine = await machineInfo();

const uid = (i: number) => `person${String(i).padStart(5, '0')}`;
const users = Array.from({ length: USERS }, (_, i) => ({ uid: uid(i), password: 'Bench-Pass-1', givenName: 'Given', sn: `Sur${i}` }));
// Each user in one group: 200 groups of 50.
const groups = Array.from({ length: GROUPS }, (_, g) => ({
  cn: `team${String(g).padStart(3, '0')}`,
  members: users.filter((_, i) => i % GROUPS === g).map((u) => u.uid),
}));
const loadStart = performance.now();
const slapd = await startSlapd({ users, groups, startTimeoutMs: 120_000 });
console.log(`slapd loaded with ${USERS} users in ${GROUPS} groups (slapadd) in ${round((performance.now() - loadStart) / 1000, 1)} s`);

const pool = new pg.Pool({ connectionString: url, max: 1 });
await pool.query(
  `update settings set ldap_enabled = true, ldap_url = $1, ldap_bind_username = $2, ldap_bind_password = $3,
    ldap_user_search_base = $4, ldap_group_search_base = $5, ldap_sync_enabled = true, ldap_authoritative_source = 'ldap'`,
  [slapd.url, slapd.rootDn, secrets.encrypt(slapd.rootPassword), slapd.peopleBase, slapd.groupsBase],
);
await pool.end();

const service = new LdapSyncService(database, secrets);
const timed = async () => {
  const start = performance.now();
  const report = await service.run(SYSTEM_ACTOR, { dryRun: false });
  return { seconds: (performance.now() - start) / 1000, report };
};

const first = await timed();
const firstPalisade = first.report.changes.filter((c) => c.side === 'palisade').length;
console.log(
  `first run: ${round(first.seconds, 2)} s, ${first.report.applied} changes applied (${firstPalisade} in Palisade), ${first.report.failed?.length} failed, ${first.report.ldapWrites} LDAP writes`,
);

// The ten LDAP-side changes, through ldapmodify as the root DN.
const ldif = Array.from({ length: CHANGES }, (_, i) =>
  [`dn: ${slapd.userDn(uid(i * 997))}`, 'changetype: modify', 'replace: givenName', `givenName: Changed${i}`, ''].join('\n'),
).join('\n');
await slapd.modify(ldif);

const second = await timed();
const secondKinds = second.report.changes.map((c) => `${c.side}.${c.kind}`);
console.log(
  `second run after ${CHANGES} LDAP changes: ${round(second.seconds, 2)} s, planned ${second.report.changes.length} (${[...new Set(secondKinds)].join(', ')}), applied ${second.report.applied}, LDAP writes ${second.report.ldapWrites}`,
);
const third = await timed();
console.log(
  `third run (nothing changed): ${round(third.seconds, 2)} s, planned ${third.report.changes.length}, applied ${third.report.applied}`,
);

const firstMet = first.seconds < FIRST_TARGET_S && (first.report.failed?.length ?? 0) === 0;
const secondMet =
  second.seconds < SECOND_TARGET_S &&
  second.report.applied === CHANGES &&
  second.report.changes.length === CHANGES &&
  second.report.ldapWrites === 0;
console.log(
  `first run < ${FIRST_TARGET_S} s: ${verdict(firstMet)}; second run < ${SECOND_TARGET_S} s with only the ${CHANGES} changes: ${verdict(secondMet)}`,
);
const file = writeResult('ldap-sync', {
  bench: 'ldap-sync',
  machine,
  command: 'cd bench && npx tsx ldap-sync.ts',
  users: USERS,
  groups: GROUPS,
  first_run: {
    seconds: round(first.seconds, 2),
    applied: first.report.applied,
    failed: first.report.failed?.length,
    ldap_writes: first.report.ldapWrites,
  },
  second_run: {
    seconds: round(second.seconds, 2),
    planned: second.report.changes.length,
    applied: second.report.applied,
    ldap_writes: second.report.ldapWrites,
    kinds: [...new Set(secondKinds)],
  },
  third_run: { seconds: round(third.seconds, 2), planned: third.report.changes.length, applied: third.report.applied },
  targets: { first_run_s: FIRST_TARGET_S, second_run_s: SECOND_TARGET_S, second_run_changes: CHANGES },
  met: { first: firstMet, second: secondMet },
});
console.log(`wrote ${file}`);
await slapd.stop();
await database.close();

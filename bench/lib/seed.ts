/** Bulk seeding in SQL for the benches: fast enough for 10,000 users in well under a second. */
import type { Pool } from 'pg';

export interface Seeded {
  users: number;
  groups: number;
  memberships: number;
}

/**
 * Adds `users - 1` users (`user00001`…, every one with the admin's password hash) next to the
 * bootstrap `admin`, and `groups` groups `team-01`…: about 2/3 of the users in one team, every 5th
 * in a second one, every 500th also in `admin`. Ends with ANALYZE.
 */
export async function seedUsers(pool: Pool, users: number, groups: number): Promise<Seeded> {
  await pool.query(`insert into groups (name) select 'team-' || lpad(g::text, 2, '0') from generate_series(1, ${groups}) g`);
  await pool.query(`
    insert into users (username, first_name, last_name, email, password_hash, created_at)
    select 'user' || lpad(i::text, 5, '0'), 'First' || i, 'Last' || (i % 997), 'user' || i || '@example.com',
           (select password_hash from users where username = 'admin'), now() - i * interval '1 minute'
    from generate_series(1, ${users - 1}) i`);
  await pool.query(`
    insert into group_members (group_id, user_id)
    select t.id, u.id from users u
    join groups t on t.name = 'team-' || lpad(((u.id % ${groups}) + 1)::text, 2, '0')
    where u.username <> 'admin' and u.id % 3 <> 0
    union
    select t.id, u.id from users u
    join groups t on t.name = 'team-' || lpad((((u.id * 7) % ${groups}) + 1)::text, 2, '0')
    where u.username <> 'admin' and u.id % 5 = 0
    union
    select a.id, u.id from users u join groups a on a.name = 'admin'
    where u.username <> 'admin' and u.id % 500 = 0;
    analyze;`);
  const counts = await pool.query<Seeded>(`select (select count(*) from users)::int as users,
      (select count(*) from groups)::int as groups, (select count(*) from group_members)::int as memberships`);
  const seeded = counts.rows[0];
  if (!seeded) throw new Error('seed count failed');
  return seeded;
}

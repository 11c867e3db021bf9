import { run } from './host';

/**
 * The database invariants a crash must not break (crash-safety.spec.ts), each a query returning
 * the rows that break it (none when it holds), read straight from PostgreSQL with psql.
 */

/** Rows of `query` (psql unaligned, `|`-separated fields), without the empty last line. */
export async function sqlRows(url: string, query: string): Promise<string[]> {
  return (await run('psql', [url, '-XAtqc', query])).split('\n').filter((line) => line !== '');
}

/** Whether a user device's owner may use the location (no allowed groups = everyone). */
const eligible = (device: string, location: string) => `(
  not exists (select 1 from location_groups lg where lg.location_id = ${location})
  or exists (select 1 from location_groups lg join group_members gm on gm.group_id = lg.group_id
             where lg.location_id = ${location} and gm.user_id = ${device}.user_id))`;

export const INVARIANTS: Record<string, string> = {
  // Allocation (ADR-004): one device per address per location (the primary key says so; checked anyway).
  'duplicate addresses': `select location_id, host(ip), count(*) from device_ips group by 1, 2 having count(*) > 1`,
  // Every address inside one of its location's networks, never the network, broadcast or location address.
  'addresses outside their network or reserved': `
    select d.location_id, host(d.ip) from device_ips d join locations l on l.id = d.location_id
     where not exists (select 1 from unnest(l.addresses) a
                        where family(a::inet) = family(d.ip) and d.ip << network(a::inet)
                          and host(d.ip) not in (host(a::inet), host(network(a::inet)), host(broadcast(a::inet))))`,
  // The bookkeeping: a hole is free; every address below a network's mark is taken, a hole, or the location's own.
  'holes that are taken': `select h.location_id, host(h.ip) from ip_free_holes h join device_ips d on d.location_id = h.location_id and host(d.ip) = host(h.ip)`,
  'free addresses below the mark that are not holes': `
    select c.location_id, c.network, host(a.ip) from ip_allocation_cursors c
      join locations l on l.id = c.location_id
      cross join lateral (select network(c.network::inet) + g as ip
                            from generate_series(1, (c.next_ip - network(c.network::inet)) - 1) g) a
     where host(a.ip) not in (select host(x::inet) from unnest(l.addresses) x)
       and not exists (select 1 from device_ips d where d.location_id = c.location_id and host(d.ip) = host(a.ip))
       and not exists (select 1 from ip_free_holes h where h.location_id = c.location_id and host(h.ip) = host(a.ip))`,
  // Placement: a user device holds one address per network of every location its owner may use, and none
  // elsewhere; a network device exactly that in its own location only.
  'user devices missing addresses': `
    select d.id, l.id from devices d cross join locations l
     where d.kind = 'user' and ${eligible('d', 'l.id')}
       and (select count(*) from device_ips i where i.device_id = d.id and i.location_id = l.id) <> cardinality(l.addresses)`,
  'user devices with addresses they may not hold': `
    select d.id, i.location_id from devices d join device_ips i on i.device_id = d.id
     where d.kind = 'user' and not ${eligible('d', 'i.location_id')}`,
  'network devices with wrong addresses': `
    select d.id, l.id from devices d join locations l on l.id = d.location_id
     where d.kind = 'network' and (select count(*) from device_ips i where i.device_id = d.id and i.location_id = l.id) <> cardinality(l.addresses)
    union all
    select d.id, i.location_id from devices d join device_ips i on i.device_id = d.id
     where d.kind = 'network' and i.location_id <> d.location_id`,
  // Trigger-kept counters (migration 0005) equal the real count.
  'row counters off': `
    select r.name, r.n, c.actual from row_counts r
      join (select 'users' as name, count(*) as actual from users
            union all select 'devices:user', count(*) from devices where kind = 'user'
            union all select 'devices:network', count(*) from devices where kind = 'network') c using (name)
     where r.n <> c.actual`,
  // Relations without a foreign key: statistics point at existing locations and gateways; deliveries
  // at existing events. (peer_stats.device_id and the events' user/device ids are history by design.)
  'orphan statistics': `
    select 'location', s.location_id from peer_stats s where not exists (select 1 from locations l where l.id = s.location_id)
    union all
    select 'gateway', s.gateway_id from peer_stats s where not exists (select 1 from gateways g where g.id = s.gateway_id)`,
  'orphan webhook deliveries': `select d.id from webhook_deliveries d where not exists (select 1 from events e where e.id = d.event_id)`,
  // A few foreign-key-backed relations, checked anyway.
  'orphan rows behind foreign keys': `
    select 'device_ips', device_id from device_ips i where not exists (select 1 from devices d where d.id = i.device_id)
    union all select 'devices', user_id from devices d where d.kind = 'user' and not exists (select 1 from users u where u.id = d.user_id)
    union all select 'group_members', user_id from group_members m where not exists (select 1 from users u where u.id = m.user_id)
    union all select 'sessions', user_id from sessions s where not exists (select 1 from users u where u.id = s.user_id)`,
  // The gateway log: the location's revision is at least its newest change; no gateway acknowledged a future revision.
  'gateway revisions behind their changes': `
    select s.location_id, s.revision, max(c.revision) from gateway_location_state s
      join gateway_changes c on c.location_id = s.location_id group by 1, 2 having max(c.revision) > s.revision
    union all
    select g.location_id, s.revision, g.acknowledged_revision from gateways g
      join gateway_location_state s on s.location_id = g.location_id
     where g.acknowledged_epoch = s.revision_epoch and g.acknowledged_revision > s.revision`,
  // The event outbox: every device and user that exists has the event of its creation (same transaction).
  'changes without their event': `
    select 'device', d.id from devices d where not exists (
      select 1 from events e where e.device_id = d.id and e.type in ('device.added', 'network_device.added'))
    union all
    select 'user', u.id from users u where u.username <> 'admin' and not exists (
      select 1 from events e where e.subject_user_id = u.id and e.type = 'user.created')`,
};

/** The broken invariants, by name, with their offending rows (empty when the database is consistent). */
export async function brokenInvariants(url: string): Promise<Record<string, string[]>> {
  const broken: Record<string, string[]> = {};
  for (const [name, query] of Object.entries(INVARIANTS)) {
    const rows = await sqlRows(url, query);
    if (rows.length > 0) broken[name] = rows.slice(0, 20);
  }
  return broken;
}

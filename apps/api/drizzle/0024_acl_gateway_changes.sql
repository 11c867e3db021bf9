-- ACL change capture for the gateway feed (docs/acl.md "Enforcement on gateways"): changes that
-- alter a location's compiled firewall name what changed in gateway_changes, like the peers'
-- triggers of 0004, with three new kinds:
--   fw_rule   key "<rule id>" (or "<rule id>/<alias id>": also remove that alias's parts): the
--             feed recompiles that ACL rule's parts for the location;
--   fw_member key "<device id>": the device's addresses in the location changed;
--   fw_full   key '': the location's ACL mode or default policy changed (a FirewallReplace).
-- Only locations with the ACL on are marked: elsewhere the firewall is unmanaged whatever the
-- rules say, and switching the ACL on sends the whole firewall.
CREATE TABLE "gateway_acl_expiry" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"swept_until" timestamp with time zone NOT NULL,
	CONSTRAINT "gateway_acl_expiry_single_row" CHECK ("gateway_acl_expiry"."id" = 1)
);
--> statement-breakpoint
INSERT INTO gateway_acl_expiry (id, swept_until) VALUES (1, now());
--> statement-breakpoint
-- (location, rule) pairs where these applied rules apply, in locations with the ACL on.
CREATE OR REPLACE FUNCTION palisade_gw_rule_places(rules integer[]) RETURNS TABLE (loc integer, rule integer) LANGUAGE sql STABLE AS $$
  SELECT l.id, r.id FROM acl_rules r JOIN locations l ON l.acl_enabled
   WHERE r.id = ANY(rules) AND r.state = 'applied' AND r.all_locations
  UNION
  SELECT rl.location_id, r.id FROM acl_rules r
    JOIN acl_rule_locations rl ON rl.rule_id = r.id
    JOIN locations l ON l.id = rl.location_id AND l.acl_enabled
   WHERE r.id = ANY(rules) AND r.state = 'applied' AND NOT r.all_locations
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_mark_rules(rules integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF rules IS NULL OR cardinality(rules) = 0 OR NOT EXISTS (SELECT 1 FROM locations WHERE acl_enabled) THEN RETURN; END IF;
  PERFORM palisade_gw_mark(array_agg(p.loc), array_agg('fw_rule'::text), array_agg(p.rule::text))
    FROM palisade_gw_rule_places(rules) p HAVING count(*) > 0;
END $$;
--> statement-breakpoint
-- Applied rules whose members include devices of these users (named, via a group, or "all users").
CREATE OR REPLACE FUNCTION palisade_gw_rules_of_users(uids integer[]) RETURNS integer[] LANGUAGE sql STABLE AS $$
  SELECT array_agg(r.id) FROM acl_rules r
   WHERE r.state = 'applied' AND (r.allow_all_users OR r.deny_all_users
      OR EXISTS (SELECT 1 FROM acl_rule_users ru WHERE ru.rule_id = r.id AND ru.user_id = ANY(uids))
      OR EXISTS (SELECT 1 FROM acl_rule_groups rg JOIN group_members gm ON gm.group_id = rg.group_id
                  WHERE rg.rule_id = r.id AND gm.user_id = ANY(uids)))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_rules_of_network_devices(dids integer[]) RETURNS integer[] LANGUAGE sql STABLE AS $$
  SELECT array_agg(r.id) FROM acl_rules r
   WHERE r.state = 'applied' AND (r.allow_all_network_devices OR r.deny_all_network_devices
      OR EXISTS (SELECT 1 FROM acl_rule_devices rd WHERE rd.rule_id = r.id AND rd.device_id = ANY(dids)))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_acl_rule_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.state = 'applied' AND EXISTS (SELECT 1 FROM locations WHERE acl_enabled) THEN
      -- Before the cascade removes its links: its parts, alias parts included, leave every location.
      PERFORM palisade_gw_mark(array_agg(p.loc), array_agg('fw_rule'::text), array_agg(p.key))
        FROM (SELECT pl.loc, pl.rule::text AS key FROM palisade_gw_rule_places(ARRAY[OLD.id]) pl
              UNION SELECT pl.loc, pl.rule || '/' || ra.alias_id FROM palisade_gw_rule_places(ARRAY[OLD.id]) pl
                      JOIN acl_rule_aliases ra ON ra.rule_id = pl.rule) p
        HAVING count(*) > 0;
    END IF;
    RETURN OLD;
  END IF;
  IF NEW.state = 'applied' OR (TG_OP = 'UPDATE' AND OLD.state = 'applied') THEN
    IF TG_OP = 'UPDATE' AND OLD.all_locations AND NOT NEW.all_locations THEN
      PERFORM palisade_gw_mark(array_agg(l.id), array_agg('fw_rule'::text), array_agg(NEW.id::text))
        FROM locations l WHERE l.acl_enabled HAVING count(*) > 0;
    END IF;
    PERFORM palisade_gw_mark_rules(ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER acl_rules_gateway_insert AFTER INSERT ON acl_rules
  FOR EACH ROW WHEN (NEW.state = 'applied') EXECUTE FUNCTION palisade_gw_acl_rule_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rules_gateway_update AFTER UPDATE ON acl_rules
  FOR EACH ROW WHEN ((OLD.state = 'applied' OR NEW.state = 'applied') AND (
    OLD.state IS DISTINCT FROM NEW.state OR OLD.priority IS DISTINCT FROM NEW.priority
    OR OLD.enabled IS DISTINCT FROM NEW.enabled OR OLD.expires IS DISTINCT FROM NEW.expires
    OR OLD.all_locations IS DISTINCT FROM NEW.all_locations
    OR OLD.allow_all_users IS DISTINCT FROM NEW.allow_all_users OR OLD.deny_all_users IS DISTINCT FROM NEW.deny_all_users
    OR OLD.allow_all_network_devices IS DISTINCT FROM NEW.allow_all_network_devices
    OR OLD.deny_all_network_devices IS DISTINCT FROM NEW.deny_all_network_devices
    OR OLD.destinations IS DISTINCT FROM NEW.destinations OR OLD.ports IS DISTINCT FROM NEW.ports
    OR OLD.protocols IS DISTINCT FROM NEW.protocols))
  EXECUTE FUNCTION palisade_gw_acl_rule_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rules_gateway_delete BEFORE DELETE ON acl_rules
  FOR EACH ROW WHEN (OLD.state = 'applied') EXECUTE FUNCTION palisade_gw_acl_rule_changed();
--> statement-breakpoint
-- Member and alias links of applied rules (rows of a rule deleted in the same statement find no
-- applied rule: its BEFORE DELETE trigger marked it already).
CREATE OR REPLACE FUNCTION palisade_gw_acl_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM palisade_gw_mark_rules((SELECT array_agg(DISTINCT rule_id) FROM old_rows));
  ELSE
    PERFORM palisade_gw_mark_rules((SELECT array_agg(DISTINCT rule_id) FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER acl_rule_users_gateway_insert AFTER INSERT ON acl_rule_users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_users_gateway_update AFTER UPDATE ON acl_rule_users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_users_gateway_delete AFTER DELETE ON acl_rule_users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_groups_gateway_insert AFTER INSERT ON acl_rule_groups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_groups_gateway_update AFTER UPDATE ON acl_rule_groups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_groups_gateway_delete AFTER DELETE ON acl_rule_groups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_devices_gateway_insert AFTER INSERT ON acl_rule_devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_devices_gateway_update AFTER UPDATE ON acl_rule_devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_devices_gateway_delete AFTER DELETE ON acl_rule_devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_aliases_gateway_insert AFTER INSERT ON acl_rule_aliases
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_links_changed();
--> statement-breakpoint
-- A detached alias: its parts of the rule are removed (key "<rule>/<alias>").
CREATE OR REPLACE FUNCTION palisade_gw_acl_rule_aliases_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM locations WHERE acl_enabled) THEN RETURN NULL; END IF;
  PERFORM palisade_gw_mark(array_agg(p.loc), array_agg('fw_rule'::text), array_agg(p.rule || '/' || o.alias_id))
    FROM old_rows o JOIN LATERAL palisade_gw_rule_places(ARRAY[o.rule_id]) p ON true HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER acl_rule_aliases_gateway_delete AFTER DELETE ON acl_rule_aliases
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_rule_aliases_deleted();
--> statement-breakpoint
-- A rule leaving a location: its parts there are removed.
CREATE OR REPLACE FUNCTION palisade_gw_acl_rule_locations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM palisade_gw_mark(array_agg(o.location_id), array_agg('fw_rule'::text), array_agg(o.rule_id::text))
      FROM old_rows o JOIN acl_rules r ON r.id = o.rule_id AND r.state = 'applied' AND NOT r.all_locations
      JOIN locations l ON l.id = o.location_id AND l.acl_enabled
      HAVING count(*) > 0;
  ELSE
    PERFORM palisade_gw_mark_rules((SELECT array_agg(DISTINCT rule_id) FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER acl_rule_locations_gateway_insert AFTER INSERT ON acl_rule_locations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_rule_locations_changed();
--> statement-breakpoint
CREATE TRIGGER acl_rule_locations_gateway_delete AFTER DELETE ON acl_rule_locations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_rule_locations_changed();
--> statement-breakpoint
-- A deployed alias (the applied row changed): the rules using it.
CREATE OR REPLACE FUNCTION palisade_gw_acl_alias_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark_rules((SELECT array_agg(rule_id) FROM acl_rule_aliases WHERE alias_id = NEW.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER acl_aliases_gateway_update AFTER UPDATE ON acl_aliases
  FOR EACH ROW WHEN (NEW.state = 'applied' AND (OLD.kind IS DISTINCT FROM NEW.kind
    OR OLD.destinations IS DISTINCT FROM NEW.destinations OR OLD.ports IS DISTINCT FROM NEW.ports
    OR OLD.protocols IS DISTINCT FROM NEW.protocols))
  EXECUTE FUNCTION palisade_gw_acl_alias_changed();
--> statement-breakpoint
-- Group membership: the rules naming the group.
CREATE OR REPLACE FUNCTION palisade_gw_group_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM palisade_gw_mark_rules((SELECT array_agg(DISTINCT rg.rule_id) FROM acl_rule_groups rg JOIN old_rows o ON o.group_id = rg.group_id));
  ELSE
    PERFORM palisade_gw_mark_rules((SELECT array_agg(DISTINCT rg.rule_id) FROM acl_rule_groups rg JOIN new_rows n ON n.group_id = rg.group_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER group_members_gateway_insert AFTER INSERT ON group_members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_group_members_changed();
--> statement-breakpoint
CREATE TRIGGER group_members_gateway_delete AFTER DELETE ON group_members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_group_members_changed();
--> statement-breakpoint
-- A device added or deleted: the rules whose members it joins or leaves.
CREATE OR REPLACE FUNCTION palisade_gw_acl_devices_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM locations WHERE acl_enabled) THEN RETURN NULL; END IF;
  PERFORM palisade_gw_mark_rules(palisade_gw_rules_of_users((SELECT array_agg(user_id) FROM new_rows WHERE user_id IS NOT NULL)));
  PERFORM palisade_gw_mark_rules(palisade_gw_rules_of_network_devices((SELECT array_agg(id) FROM new_rows WHERE kind = 'network')));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_acl_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_devices_added();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_acl_device_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM locations WHERE acl_enabled) THEN RETURN OLD; END IF;
  IF OLD.user_id IS NOT NULL THEN
    PERFORM palisade_gw_mark_rules(palisade_gw_rules_of_users(ARRAY[OLD.user_id]));
  ELSE
    PERFORM palisade_gw_mark_rules(palisade_gw_rules_of_network_devices(ARRAY[OLD.id]));
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_acl_delete BEFORE DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION palisade_gw_acl_device_deleted();
--> statement-breakpoint
-- A device's addresses in a location: its member entry.
CREATE OR REPLACE FUNCTION palisade_gw_acl_device_ips_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM palisade_gw_mark(array_agg(o.location_id), array_agg('fw_member'::text), array_agg(o.device_id::text))
      FROM old_rows o JOIN locations l ON l.id = o.location_id AND l.acl_enabled HAVING count(*) > 0;
  ELSE
    PERFORM palisade_gw_mark(array_agg(n.location_id), array_agg('fw_member'::text), array_agg(n.device_id::text))
      FROM new_rows n JOIN locations l ON l.id = n.location_id AND l.acl_enabled HAVING count(*) > 0;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM palisade_gw_mark(array_agg(o.location_id), array_agg('fw_member'::text), array_agg(o.device_id::text))
      FROM old_rows o JOIN locations l ON l.id = o.location_id AND l.acl_enabled HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER device_ips_acl_insert AFTER INSERT ON device_ips
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_device_ips_changed();
--> statement-breakpoint
CREATE TRIGGER device_ips_acl_update AFTER UPDATE ON device_ips
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_device_ips_changed();
--> statement-breakpoint
CREATE TRIGGER device_ips_acl_delete AFTER DELETE ON device_ips
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_acl_device_ips_changed();
--> statement-breakpoint
-- The ACL mode or default policy of a location: the whole firewall.
CREATE OR REPLACE FUNCTION palisade_gw_acl_location_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark(ARRAY[NEW.id], ARRAY['fw_full'], ARRAY['']);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER locations_acl_update AFTER UPDATE OF acl_enabled, acl_default_allow ON locations
  FOR EACH ROW WHEN (OLD.acl_enabled IS DISTINCT FROM NEW.acl_enabled OR OLD.acl_default_allow IS DISTINCT FROM NEW.acl_default_allow)
  EXECUTE FUNCTION palisade_gw_acl_location_changed();

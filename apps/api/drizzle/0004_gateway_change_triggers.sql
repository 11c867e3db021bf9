-- Gateway change capture (ADR-002): every committed change of a location's desired state bumps
-- the location's revision once per transaction and names what changed in gateway_changes; the
-- API replicas hear about it through NOTIFY on channel palisade_gateway (delivered on commit).
-- Triggers instead of service hooks: imports, cascades and placement resyncs are all covered.
INSERT INTO gateway_location_state (location_id, revision, revision_epoch)
  SELECT id, 1, gen_random_uuid()::text FROM locations
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The location's revision for the current transaction: bumped on first use, then reused.
-- NULL when the location is gone (deleted in this transaction).
CREATE OR REPLACE FUNCTION palisade_gw_revision(loc integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  setting text := 'palisade.gw_rev_' || loc;
  cached text := current_setting(setting, true);
  tx text := txid_current()::text;
  r bigint;
BEGIN
  IF cached IS NOT NULL AND split_part(cached, ':', 1) = tx THEN
    RETURN split_part(cached, ':', 2)::bigint;
  END IF;
  UPDATE gateway_location_state s SET revision = s.revision + 1
    FROM locations l WHERE s.location_id = loc AND l.id = loc
    RETURNING s.revision INTO r;
  IF r IS NULL THEN RETURN NULL; END IF;
  PERFORM set_config(setting, tx || ':' || r, true);
  PERFORM pg_notify('palisade_gateway', 'rev:' || loc || ':' || r);
  RETURN r;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_mark(locs integer[], kinds text[], keys text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO gateway_changes (location_id, revision, kind, key)
  SELECT c.loc, c.rev, c.kind, c.key
    FROM (SELECT x.loc, x.kind, x.key, palisade_gw_revision(x.loc) AS rev
            FROM (SELECT DISTINCT loc, kind, key FROM unnest(locs, kinds, keys) AS u(loc, kind, key) ORDER BY loc) x) c
   WHERE c.rev IS NOT NULL
  ON CONFLICT DO NOTHING;
END $$;
--> statement-breakpoint
-- Peers named by (location, device): their current public keys.
CREATE OR REPLACE FUNCTION palisade_gw_mark_devices(locs integer[], devs integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  l integer[]; k text[];
BEGIN
  SELECT array_agg(x.loc), array_agg(d.wireguard_pubkey) INTO l, k
    FROM unnest(locs, devs) AS x(loc, dev) JOIN devices d ON d.id = x.dev;
  IF l IS NOT NULL THEN PERFORM palisade_gw_mark(l, array_fill('peer'::text, ARRAY[cardinality(l)]), k); END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_device_ips_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark_devices((SELECT array_agg(location_id) FROM new_rows), (SELECT array_agg(device_id) FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_device_ips_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark_devices((SELECT array_agg(location_id) FROM old_rows), (SELECT array_agg(device_id) FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER device_ips_gateway_insert AFTER INSERT ON device_ips
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_device_ips_new();
--> statement-breakpoint
CREATE TRIGGER device_ips_gateway_delete AFTER DELETE ON device_ips
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_device_ips_old();
--> statement-breakpoint
CREATE TRIGGER device_ips_gateway_update_old AFTER UPDATE ON device_ips
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_device_ips_old();
--> statement-breakpoint
CREATE TRIGGER device_ips_gateway_update_new AFTER UPDATE ON device_ips
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_gw_device_ips_new();
--> statement-breakpoint
-- A deleted device: its key leaves every location it was in (before the cascade removes its
-- addresses, while they can still be read).
CREATE OR REPLACE FUNCTION palisade_gw_device_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark(array_agg(di.location_id), array_agg('peer'::text), array_agg(OLD.wireguard_pubkey))
    FROM device_ips di WHERE di.device_id = OLD.id HAVING count(*) > 0;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_gateway_delete BEFORE DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION palisade_gw_device_deleted();
--> statement-breakpoint
-- A new key: the old one is removed and the new one added, in one revision.
CREATE OR REPLACE FUNCTION palisade_gw_device_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark(array_agg(di.location_id) || array_agg(di.location_id),
                           array_agg('peer'::text) || array_agg('peer'::text),
                           array_agg(OLD.wireguard_pubkey) || array_agg(NEW.wireguard_pubkey))
    FROM device_ips di WHERE di.device_id = NEW.id HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_gateway_key AFTER UPDATE OF wireguard_pubkey ON devices
  FOR EACH ROW WHEN (OLD.wireguard_pubkey IS DISTINCT FROM NEW.wireguard_pubkey)
  EXECUTE FUNCTION palisade_gw_device_key_changed();
--> statement-breakpoint
-- Disabling or enabling a user removes or restores the peers of all their devices.
CREATE OR REPLACE FUNCTION palisade_gw_user_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark(array_agg(di.location_id), array_agg('peer'::text), array_agg(d.wireguard_pubkey))
    FROM devices d JOIN device_ips di ON di.device_id = d.id WHERE d.user_id = NEW.id HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_gateway_status AFTER UPDATE OF is_active ON users
  FOR EACH ROW WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active)
  EXECUTE FUNCTION palisade_gw_user_status_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_location_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO gateway_location_state (location_id, revision, revision_epoch)
    VALUES (NEW.id, 1, gen_random_uuid()::text) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER locations_gateway_insert AFTER INSERT ON locations
  FOR EACH ROW EXECUTE FUNCTION palisade_gw_location_created();
--> statement-breakpoint
-- Interface settings (key, port, addresses) travel as an InterfaceChange; the keepalive applies
-- to every peer, so it asks for a full snapshot.
CREATE OR REPLACE FUNCTION palisade_gw_location_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.private_key_enc IS DISTINCT FROM NEW.private_key_enc OR OLD.port IS DISTINCT FROM NEW.port
     OR OLD.addresses IS DISTINCT FROM NEW.addresses THEN
    PERFORM palisade_gw_mark(ARRAY[NEW.id], ARRAY['interface'], ARRAY['']);
  END IF;
  IF OLD.keepalive_interval IS DISTINCT FROM NEW.keepalive_interval THEN
    PERFORM palisade_gw_mark(ARRAY[NEW.id], ARRAY['full'], ARRAY['']);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER locations_gateway_update AFTER UPDATE ON locations
  FOR EACH ROW EXECUTE FUNCTION palisade_gw_location_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_gw_location_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('palisade_gateway', 'gone:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER locations_gateway_delete AFTER DELETE ON locations
  FOR EACH ROW EXECUTE FUNCTION palisade_gw_location_deleted();

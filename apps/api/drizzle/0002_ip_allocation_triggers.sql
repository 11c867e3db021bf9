-- Keeps the allocation bookkeeping true however addresses change (cascades included):
-- a freed address below its network's high-water mark becomes a hole; a taken one stops being one.
CREATE OR REPLACE FUNCTION palisade_record_ip_holes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ip_free_holes (location_id, network, ip)
  SELECT o.location_id, c.network, o.ip
    FROM old_rows o
    JOIN ip_allocation_cursors c ON c.location_id = o.location_id AND o.ip <<= c.network::inet AND o.ip < c.next_ip
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_clear_ip_holes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ip_free_holes h USING new_rows n WHERE h.location_id = n.location_id AND h.ip = n.ip;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER device_ips_record_holes
  AFTER DELETE ON device_ips
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION palisade_record_ip_holes();
--> statement-breakpoint
CREATE TRIGGER device_ips_clear_holes
  AFTER INSERT ON device_ips
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION palisade_clear_ip_holes();

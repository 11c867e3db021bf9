-- Device IP allocation in one round trip (ADR-004): the lowest still-free hole, else the first
-- free address from the network's high-water mark, skipping the location's own address,
-- addresses taken by hand and `p_reserved` (which become holes). With `p_take` the address is
-- taken (hole consumed or mark moved) under the location row lock, which it takes (callers that
-- already hold it lose nothing); without, it is only found. Returns NULL when the network is full.
CREATE OR REPLACE FUNCTION palisade_allocate_ip(
  p_location integer, p_network text, p_first inet, p_last inet, p_own inet, p_reserved inet[], p_take boolean
) RETURNS inet LANGUAGE plpgsql AS $$
DECLARE
  v_mark inet;
  v_hole inet;
  v_candidate inet;
  v_skipped inet[] := '{}';
BEGIN
  IF p_take THEN
    -- Allocations in one location are serialised by its row lock (ADR-004).
    PERFORM 1 FROM locations WHERE id = p_location FOR UPDATE;
    SELECT next_ip INTO v_mark FROM ip_allocation_cursors
      WHERE location_id = p_location AND network = p_network FOR UPDATE;
    IF NOT FOUND THEN
      INSERT INTO ip_allocation_cursors (location_id, network, next_ip) VALUES (p_location, p_network, p_first)
        ON CONFLICT DO NOTHING;
      SELECT next_ip INTO v_mark FROM ip_allocation_cursors
        WHERE location_id = p_location AND network = p_network FOR UPDATE;
    END IF;
  ELSE
    SELECT next_ip INTO v_mark FROM ip_allocation_cursors WHERE location_id = p_location AND network = p_network;
  END IF;

  FOR v_hole IN
    SELECT ip FROM ip_free_holes WHERE location_id = p_location AND network = p_network ORDER BY ip LIMIT 64
  LOOP
    CONTINUE WHEN v_hole = ANY (p_reserved);
    IF p_take THEN
      DELETE FROM ip_free_holes WHERE location_id = p_location AND network = p_network AND ip = v_hole;
    END IF;
    IF v_hole BETWEEN p_first AND p_last AND v_hole <> p_own
       AND NOT EXISTS (SELECT 1 FROM device_ips WHERE location_id = p_location AND ip = v_hole) THEN
      RETURN v_hole;
    END IF;
  END LOOP;

  v_candidate := greatest(coalesce(v_mark, p_first), p_first);
  WHILE v_candidate IS NOT NULL AND v_candidate <= p_last LOOP
    IF v_candidate = p_own THEN
      NULL;
    ELSIF v_candidate = ANY (p_reserved) THEN
      v_skipped := v_skipped || v_candidate;
    ELSIF EXISTS (SELECT 1 FROM device_ips WHERE location_id = p_location AND ip = v_candidate) THEN
      -- Jump over the run of taken addresses in one index walk: to the first whose successor is free.
      SELECT d.ip + 1 INTO v_candidate FROM device_ips d
        WHERE d.location_id = p_location AND d.ip >= v_candidate AND d.ip < p_last
          AND NOT EXISTS (SELECT 1 FROM device_ips e WHERE e.location_id = p_location AND e.ip = d.ip + 1)
        ORDER BY d.ip LIMIT 1;
      CONTINUE;
    ELSE
      IF p_take THEN
        UPDATE ip_allocation_cursors
          SET next_ip = CASE WHEN v_candidate < p_last THEN v_candidate + 1 ELSE v_candidate END
          WHERE location_id = p_location AND network = p_network;
        INSERT INTO ip_free_holes (location_id, network, ip)
          SELECT p_location, p_network, s FROM unnest(v_skipped) s ON CONFLICT DO NOTHING;
      END IF;
      RETURN v_candidate;
    END IF;
    EXIT WHEN v_candidate = p_last;
    v_candidate := v_candidate + 1;
  END LOOP;
  RETURN NULL;
END $$;

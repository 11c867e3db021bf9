-- Connection tracking without locking unchanged rows: only peers whose reported handshake is newer
-- than the stored one reach the upsert (ON CONFLICT DO UPDATE ... WHERE still locks the rows it
-- does not update, which dirtied a heap page per peer and report), and only those are checked
-- against devices and locations.
CREATE OR REPLACE FUNCTION palisade_track_connections() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_connections AS c (device_id, location_id, latest_handshake, endpoint, connected_at)
  SELECT n.device_id, n.location_id, n.latest_handshake, n.endpoint, n.latest_handshake
    FROM (
      SELECT DISTINCT ON (r.device_id, r.location_id) r.device_id, r.location_id, r.latest_handshake, r.endpoint
        FROM new_rows r
       WHERE r.latest_handshake IS NOT NULL
       ORDER BY r.device_id, r.location_id, r.latest_handshake DESC, r.collected_at DESC
    ) n
   WHERE NOT EXISTS (SELECT 1 FROM device_connections o
                      WHERE o.device_id = n.device_id AND o.location_id = n.location_id AND o.latest_handshake >= n.latest_handshake)
     AND EXISTS (SELECT 1 FROM devices d WHERE d.id = n.device_id)
     AND EXISTS (SELECT 1 FROM locations l WHERE l.id = n.location_id)
   ORDER BY n.device_id, n.location_id
  ON CONFLICT (device_id, location_id) DO UPDATE SET
    latest_handshake = excluded.latest_handshake,
    endpoint = coalesce(excluded.endpoint, c.endpoint),
    connected_at = CASE
      WHEN excluded.latest_handshake - c.latest_handshake
           > (SELECT make_interval(secs => l.peer_disconnect_threshold) FROM locations l WHERE l.id = excluded.location_id)
      THEN excluded.latest_handshake
      ELSE c.connected_at
    END
  WHERE excluded.latest_handshake > c.latest_handshake;
  RETURN NULL;
END $$;

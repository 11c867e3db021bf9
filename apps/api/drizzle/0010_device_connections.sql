CREATE TABLE "device_connections" (
	"device_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"latest_handshake" timestamp with time zone NOT NULL,
	"endpoint" text,
	"connected_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_connections_device_id_location_id_pk" PRIMARY KEY("device_id","location_id")
);
--> statement-breakpoint
ALTER TABLE "device_connections" ADD CONSTRAINT "device_connections_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_connections" ADD CONSTRAINT "device_connections_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Keeps device_connections from the stats gateways report: per (device, location) of an insert,
-- its newest handshake. Only a newer handshake writes; a gap longer than the location's
-- peer_disconnect_threshold since the previous one starts a new connection (connected_at).
-- Rows of devices or locations deleted meanwhile are skipped. Upserts go in key order so that
-- concurrent batches lock rows in the same order.
CREATE OR REPLACE FUNCTION palisade_track_connections() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_connections AS c (device_id, location_id, latest_handshake, endpoint, connected_at)
  SELECT DISTINCT ON (n.device_id, n.location_id) n.device_id, n.location_id, n.latest_handshake, n.endpoint, n.latest_handshake
    FROM new_rows n
    JOIN devices d ON d.id = n.device_id
    JOIN locations l ON l.id = n.location_id
   WHERE n.latest_handshake IS NOT NULL
   ORDER BY n.device_id, n.location_id, n.latest_handshake DESC, n.collected_at DESC
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
--> statement-breakpoint
CREATE TRIGGER peer_stats_track_connections AFTER INSERT ON peer_stats
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_track_connections();
--> statement-breakpoint
INSERT INTO device_connections (device_id, location_id, latest_handshake, endpoint, connected_at)
SELECT DISTINCT ON (s.device_id, s.location_id) s.device_id, s.location_id, s.latest_handshake, s.endpoint, s.latest_handshake
  FROM peer_stats s
  JOIN devices d ON d.id = s.device_id
  JOIN locations l ON l.id = s.location_id
 WHERE s.latest_handshake IS NOT NULL
 ORDER BY s.device_id, s.location_id, s.latest_handshake DESC, s.collected_at DESC
ON CONFLICT DO NOTHING;

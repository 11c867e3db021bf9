CREATE TABLE "row_counts" (
	"name" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- Keeps row_counts('users') equal to the number of users, in the same transaction as the change.
-- A missing row is recreated from a full count, so the value heals if the row is ever deleted.
CREATE OR REPLACE FUNCTION palisade_count_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*) INTO delta FROM old_rows;
  ELSE
    DELETE FROM row_counts WHERE name = 'users';
    delta := 0;
  END IF;
  INSERT INTO row_counts (name, n) VALUES ('users', (SELECT count(*) FROM users))
    ON CONFLICT (name) DO UPDATE SET n = row_counts.n + delta;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_count_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_count_users();
--> statement-breakpoint
CREATE TRIGGER users_count_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_count_users();
--> statement-breakpoint
CREATE TRIGGER users_count_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION palisade_count_users();
--> statement-breakpoint
INSERT INTO row_counts (name, n) SELECT 'users', count(*) FROM users
  ON CONFLICT (name) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
-- The same for devices, per kind: row_counts('devices:user') and row_counts('devices:network').
CREATE OR REPLACE FUNCTION palisade_count_devices() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP IN ('TRUNCATE', 'UPDATE') THEN
    -- Dropped rather than adjusted: readers count until the next insert recreates them.
    DELETE FROM row_counts WHERE name LIKE 'devices:%';
    RETURN NULL;
  END IF;
  FOR r IN
    SELECT kind, count(*) AS delta FROM new_rows GROUP BY kind
  LOOP
    INSERT INTO row_counts (name, n) VALUES ('devices:' || r.kind, (SELECT count(*) FROM devices WHERE kind = r.kind))
      ON CONFLICT (name) DO UPDATE SET n = row_counts.n + r.delta;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION palisade_uncount_devices() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT kind, count(*) AS delta FROM old_rows GROUP BY kind
  LOOP
    INSERT INTO row_counts (name, n) VALUES ('devices:' || r.kind, (SELECT count(*) FROM devices WHERE kind = r.kind))
      ON CONFLICT (name) DO UPDATE SET n = row_counts.n - r.delta;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_count_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_count_devices();
--> statement-breakpoint
CREATE TRIGGER devices_count_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION palisade_uncount_devices();
--> statement-breakpoint
CREATE TRIGGER devices_count_truncate AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION palisade_count_devices();
--> statement-breakpoint
CREATE TRIGGER devices_count_kind_change AFTER UPDATE OF kind ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION palisade_count_devices();
--> statement-breakpoint
INSERT INTO row_counts (name, n) SELECT 'devices:' || kind, count(*) FROM devices GROUP BY kind
  ON CONFLICT (name) DO UPDATE SET n = excluded.n;

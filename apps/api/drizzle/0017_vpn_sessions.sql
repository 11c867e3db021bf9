CREATE TABLE "vpn_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"challenge_hash" text,
	"challenge_expires_at" timestamp with time zone NOT NULL,
	"preshared_key_enc" text,
	"started_at" timestamp with time zone,
	"last_handshake" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_sessions_challenge_key" ON "vpn_sessions" USING btree ("challenge_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_sessions_active_key" ON "vpn_sessions" USING btree ("device_id","location_id") WHERE "vpn_sessions"."started_at" is not null and "vpn_sessions"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "vpn_sessions_user_idx" ON "vpn_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "vpn_sessions_location_active_idx" ON "vpn_sessions" USING btree ("location_id") WHERE "vpn_sessions"."started_at" is not null and "vpn_sessions"."ended_at" is null;--> statement-breakpoint
-- MFA-protected locations (docs/mfa.md): a session starting or ending names the device's peer,
-- so gateways receive it as an ordinary peer delta.
CREATE OR REPLACE FUNCTION palisade_gw_vpn_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP = 'INSERT' AND NEW.started_at IS NOT NULL)
     OR (TG_OP = 'UPDATE' AND (OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.ended_at IS DISTINCT FROM NEW.ended_at
                               OR OLD.preshared_key_enc IS DISTINCT FROM NEW.preshared_key_enc)) THEN
    PERFORM palisade_gw_mark_devices(ARRAY[NEW.location_id], ARRAY[NEW.device_id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER vpn_sessions_gateway AFTER INSERT OR UPDATE ON vpn_sessions
  FOR EACH ROW EXECUTE FUNCTION palisade_gw_vpn_session_changed();
--> statement-breakpoint
-- Turning MFA on or off changes which peers a location has: its gateways get a snapshot.
CREATE OR REPLACE FUNCTION palisade_gw_location_mfa_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM palisade_gw_mark(ARRAY[NEW.id], ARRAY['full'], ARRAY['']);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER locations_gateway_mfa AFTER UPDATE OF mfa_enabled ON locations
  FOR EACH ROW WHEN (OLD.mfa_enabled IS DISTINCT FROM NEW.mfa_enabled)
  EXECUTE FUNCTION palisade_gw_location_mfa_changed();
--> statement-breakpoint
-- A disabled user's sessions end (their peers leave with the user's status change).
CREATE OR REPLACE FUNCTION palisade_vpn_sessions_user_disabled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE vpn_sessions SET ended_at = now(), end_reason = 'user_disabled'
   WHERE user_id = NEW.id AND ended_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_vpn_sessions_disabled AFTER UPDATE OF is_active ON users
  FOR EACH ROW WHEN (OLD.is_active AND NOT NEW.is_active)
  EXECUTE FUNCTION palisade_vpn_sessions_user_disabled();

CREATE TABLE "gateway_changes" (
	"location_id" integer NOT NULL,
	"revision" bigint NOT NULL,
	"kind" text NOT NULL,
	"key" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_changes_location_id_revision_kind_key_pk" PRIMARY KEY("location_id","revision","kind","key")
);
--> statement-breakpoint
CREATE TABLE "gateway_location_state" (
	"location_id" integer PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 1 NOT NULL,
	"revision_epoch" text NOT NULL,
	"log_floor" bigint DEFAULT 0 NOT NULL,
	"token_hash" text,
	"token_enc" text,
	"token_created_at" timestamp with time zone,
	CONSTRAINT "gateway_location_state_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" serial PRIMARY KEY NOT NULL,
	"location_id" integer NOT NULL,
	"gateway_id" text NOT NULL,
	"name" text NOT NULL,
	"hostname" text NOT NULL,
	"version" text NOT NULL,
	"interface_name" text DEFAULT '' NOT NULL,
	"implementation" text DEFAULT 'unknown' NOT NULL,
	"stream_id" text,
	"connected_at" timestamp with time zone,
	"disconnected_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"acknowledged_revision" bigint DEFAULT 0 NOT NULL,
	"acknowledged_epoch" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'unknown' NOT NULL,
	"status_message" text,
	"peer_count" integer
);
--> statement-breakpoint
CREATE TABLE "peer_stats" (
	"location_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"upload" bigint NOT NULL,
	"download" bigint NOT NULL,
	"latest_handshake" timestamp with time zone,
	"endpoint" text
);
--> statement-breakpoint
ALTER TABLE "gateway_changes" ADD CONSTRAINT "gateway_changes_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_location_state" ADD CONSTRAINT "gateway_location_state_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_changes_created_idx" ON "gateway_changes" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_location_gateway_key" ON "gateways" USING btree ("location_id","gateway_id");--> statement-breakpoint
CREATE INDEX "peer_stats_location_time_idx" ON "peer_stats" USING btree ("location_id","collected_at");--> statement-breakpoint
CREATE INDEX "peer_stats_device_time_idx" ON "peer_stats" USING btree ("device_id","collected_at");

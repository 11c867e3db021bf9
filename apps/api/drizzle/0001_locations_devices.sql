CREATE TABLE "cli_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"device_id" integer,
	"spec" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "cli_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "device_ips" (
	"location_id" integer NOT NULL,
	"ip" "inet" NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "device_ips_location_ip_pk" PRIMARY KEY("location_id","ip")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"wireguard_pubkey" text NOT NULL,
	"user_id" integer,
	"location_id" integer,
	"description" text,
	"added_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_kind_owner_check" CHECK (("devices"."kind" = 'user' and "devices"."user_id" is not null) or ("devices"."kind" = 'network' and "devices"."location_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "ip_allocation_cursors" (
	"location_id" integer NOT NULL,
	"network" text NOT NULL,
	"next_ip" "inet" NOT NULL,
	CONSTRAINT "ip_allocation_cursors_location_id_network_pk" PRIMARY KEY("location_id","network")
);
--> statement-breakpoint
CREATE TABLE "ip_free_holes" (
	"location_id" integer NOT NULL,
	"network" text NOT NULL,
	"ip" "inet" NOT NULL,
	CONSTRAINT "ip_free_holes_location_id_network_ip_pk" PRIMARY KEY("location_id","network","ip")
);
--> statement-breakpoint
CREATE TABLE "location_groups" (
	"location_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "location_groups_location_id_group_id_pk" PRIMARY KEY("location_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"addresses" text[] NOT NULL,
	"endpoint" text NOT NULL,
	"port" integer NOT NULL,
	"dns" text[] DEFAULT '{}'::text[] NOT NULL,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"mfa_enabled" boolean DEFAULT false NOT NULL,
	"keepalive_interval" integer DEFAULT 25 NOT NULL,
	"peer_disconnect_threshold" integer DEFAULT 300 NOT NULL,
	"acl_enabled" boolean DEFAULT false NOT NULL,
	"acl_default_allow" boolean DEFAULT false NOT NULL,
	"pubkey" text NOT NULL,
	"private_key_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_device_management" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "disable_all_traffic" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "disable_manual_config" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cli_tokens" ADD CONSTRAINT "cli_tokens_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_ips" ADD CONSTRAINT "device_ips_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_ips" ADD CONSTRAINT "device_ips_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_allocation_cursors" ADD CONSTRAINT "ip_allocation_cursors_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_free_holes" ADD CONSTRAINT "ip_free_holes_location_id_network_ip_allocation_cursors_location_id_network_fk" FOREIGN KEY ("location_id","network") REFERENCES "public"."ip_allocation_cursors"("location_id","network") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_groups" ADD CONSTRAINT "location_groups_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_groups" ADD CONSTRAINT "location_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_ips_device_idx" ON "device_ips" USING btree ("device_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_pubkey_key" ON "devices" USING btree ("wireguard_pubkey");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_user_name_key" ON "devices" USING btree ("user_id",lower("name")) WHERE "devices"."kind" = 'user';--> statement-breakpoint
CREATE UNIQUE INDEX "devices_network_name_key" ON "devices" USING btree (lower("name")) WHERE "devices"."kind" = 'network';--> statement-breakpoint
CREATE INDEX "devices_user_idx" ON "devices" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "devices_location_idx" ON "devices" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "location_groups_group_idx" ON "location_groups" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "locations_name_lower_key" ON "locations" USING btree (lower("name"));
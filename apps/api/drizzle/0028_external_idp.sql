CREATE TABLE "external_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "external_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text,
	"base_url" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"auto_create_account" boolean DEFAULT true NOT NULL,
	"username_handling" text DEFAULT 'remove' NOT NULL,
	"enable_directory_sync" boolean DEFAULT false NOT NULL,
	"sync_target" text DEFAULT 'all' NOT NULL,
	"sync_interval" integer DEFAULT 1800 NOT NULL,
	"user_behavior" text DEFAULT 'keep' NOT NULL,
	"admin_behavior" text DEFAULT 'keep' NOT NULL,
	"admin_email" text DEFAULT '' NOT NULL,
	"google_service_account_key" text,
	"google_service_account_email" text DEFAULT '' NOT NULL,
	"okta_client_id" text DEFAULT '' NOT NULL,
	"okta_private_jwk" text,
	"jumpcloud_api_key" text,
	"group_match" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_identities" ADD CONSTRAINT "external_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_identities_provider_subject_key" ON "external_identities" USING btree ("provider","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "external_providers_name_key" ON "external_providers" USING btree ("name");
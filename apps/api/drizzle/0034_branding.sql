CREATE TABLE "branding_logos" (
	"kind" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"hash" text NOT NULL,
	"data_base64" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "default_network_view" text DEFAULT 'grid' NOT NULL;
CREATE TABLE "import_pending_peers" (
	"location_id" integer NOT NULL,
	"wireguard_pubkey" text NOT NULL,
	"wireguard_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "import_pending_peers_location_id_wireguard_pubkey_pk" PRIMARY KEY("location_id","wireguard_pubkey")
);
--> statement-breakpoint
ALTER TABLE "import_pending_peers" ADD CONSTRAINT "import_pending_peers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;
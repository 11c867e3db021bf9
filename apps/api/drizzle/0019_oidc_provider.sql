CREATE TABLE "oidc_artifacts" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"user_code" text,
	"account_id" text,
	"client_id" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_artifacts_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "oidc_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"alg" text NOT NULL,
	"private_jwk_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activates_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_sub" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE INDEX "oidc_artifacts_grant_idx" ON "oidc_artifacts" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_artifacts_uid_idx" ON "oidc_artifacts" USING btree ("model","uid");--> statement-breakpoint
CREATE INDEX "oidc_artifacts_expires_idx" ON "oidc_artifacts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oidc_artifacts_account_client_idx" ON "oidc_artifacts" USING btree ("account_id","client_id") WHERE "oidc_artifacts"."model" = 'Grant';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_oidc_sub_unique" UNIQUE("oidc_sub");
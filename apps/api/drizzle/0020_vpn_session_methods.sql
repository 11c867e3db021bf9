ALTER TABLE "vpn_sessions" ADD COLUMN "mfa_method" text DEFAULT 'totp' NOT NULL;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD COLUMN "webauthn_challenge" text;
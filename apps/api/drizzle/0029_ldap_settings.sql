ALTER TABLE "settings" ADD COLUMN "ldap_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_bind_username" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_bind_password" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_member_attr" text DEFAULT 'memberOf' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_username_attr" text DEFAULT 'uid' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_user_obj_class" text DEFAULT 'inetOrgPerson' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_user_auxiliary_obj_classes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_user_search_base" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_groupname_attr" text DEFAULT 'cn' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_group_search_base" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_group_member_attr" text DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_group_obj_class" text DEFAULT 'groupOfNames' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_sync_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_authoritative_source" text DEFAULT 'ldap' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_sync_interval" integer DEFAULT 300 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_use_starttls" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_tls_verify_cert" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_tls_ca_cert" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_uses_ad" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_user_rdn_attr" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_sync_groups" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "ldap_removed_user_behavior" text DEFAULT 'disable' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ldap_dn" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ldap_rdn" text;
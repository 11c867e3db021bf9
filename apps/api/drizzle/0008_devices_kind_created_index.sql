DROP INDEX "devices_created_idx";--> statement-breakpoint
CREATE INDEX "devices_kind_created_idx" ON "devices" USING btree ("kind","created_at","id");
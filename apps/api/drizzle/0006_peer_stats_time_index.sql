DROP INDEX "peer_stats_device_time_idx";--> statement-breakpoint
CREATE INDEX "peer_stats_time_idx" ON "peer_stats" USING btree ("collected_at");
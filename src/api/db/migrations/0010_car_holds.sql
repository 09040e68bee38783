ALTER TABLE "subscription_requests" ADD COLUMN "requested_start" date;--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD COLUMN "hold_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sub_requests_car_idx" ON "subscription_requests" USING btree ("car_id","status");
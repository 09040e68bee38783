ALTER TABLE "cars" ADD COLUMN "option_prices" jsonb;--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD COLUMN "options" jsonb;
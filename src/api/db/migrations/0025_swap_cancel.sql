ALTER TABLE "subscription_swaps" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_swaps" ADD COLUMN "cancel_payment_id" varchar(64);
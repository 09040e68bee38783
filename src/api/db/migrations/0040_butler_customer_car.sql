-- BUTLER_LEGAL_MODEL=own-car (docs/decisions/legal.md §2): a driver for the customer's own car
-- has no fleet car, and keeps the car the customer supplied (subscription car or their own).
ALTER TABLE "butler_requests" ALTER COLUMN "butler_car_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "customer_car" jsonb;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD CONSTRAINT "butler_requests_car_or_customer_car" CHECK ("butler_car_id" IS NOT NULL OR "customer_car" IS NOT NULL);

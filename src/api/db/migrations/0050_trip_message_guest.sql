ALTER TABLE "trip_messages" DROP CONSTRAINT "trip_messages_sender_check";--> statement-breakpoint
ALTER TABLE "trip_messages" ADD CONSTRAINT "trip_messages_sender_check" CHECK ("sender" IN ('customer', 'driver', 'staff', 'guest'));

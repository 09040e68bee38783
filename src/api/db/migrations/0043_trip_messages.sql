CREATE TABLE "trip_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"butler_request_id" integer NOT NULL REFERENCES "butler_requests"("id") ON DELETE CASCADE,
	"sender" varchar(10) NOT NULL,
	"sender_user_id" integer REFERENCES "users"("id"),
	"body" text NOT NULL,
	"client_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"read_by_customer_at" timestamp with time zone,
	"read_by_driver_at" timestamp with time zone,
	CONSTRAINT "trip_messages_sender_check" CHECK ("sender" IN ('customer', 'driver', 'staff')),
	CONSTRAINT "trip_messages_body_check" CHECK (char_length("body") BETWEEN 1 AND 500)
);--> statement-breakpoint
CREATE UNIQUE INDEX "trip_messages_client_uq" ON "trip_messages" USING btree ("butler_request_id","client_id");--> statement-breakpoint
CREATE INDEX "trip_messages_request_idx" ON "trip_messages" USING btree ("butler_request_id","id");

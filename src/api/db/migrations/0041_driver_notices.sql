CREATE TABLE "driver_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"driver_id" integer NOT NULL REFERENCES "drivers"("id"),
	"butler_request_id" integer NOT NULL REFERENCES "butler_requests"("id") ON DELETE CASCADE,
	"kind" varchar(20) NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"key" varchar(200) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "driver_notices_key_uq" ON "driver_notices" USING btree ("key");--> statement-breakpoint
CREATE INDEX "driver_notices_driver_idx" ON "driver_notices" USING btree ("driver_id","created_at");

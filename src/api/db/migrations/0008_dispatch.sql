CREATE TABLE "drivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(40) NOT NULL,
	"phone" varchar(20) NOT NULL,
	"gender" varchar(10) NOT NULL,
	"licence_classes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"days_off" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "driver_id" integer;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD CONSTRAINT "butler_requests_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "butler_requests_driver_idx" ON "butler_requests" USING btree ("driver_id");
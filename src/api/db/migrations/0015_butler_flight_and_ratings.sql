CREATE TABLE "trip_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"butler_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"driver_id" integer,
	"score" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trip_ratings_butler_request_id_unique" UNIQUE("butler_request_id")
);
--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "flight_number" varchar(8);--> statement-breakpoint
ALTER TABLE "trip_ratings" ADD CONSTRAINT "trip_ratings_butler_request_id_butler_requests_id_fk" FOREIGN KEY ("butler_request_id") REFERENCES "public"."butler_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_ratings" ADD CONSTRAINT "trip_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_ratings" ADD CONSTRAINT "trip_ratings_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trip_ratings_driver_idx" ON "trip_ratings" USING btree ("driver_id");
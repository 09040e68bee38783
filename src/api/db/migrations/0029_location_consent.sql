CREATE TABLE "driver_location_consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"driver_id" integer NOT NULL,
	"user_id" integer,
	"kind" varchar(20) NOT NULL,
	"version" varchar(20) NOT NULL,
	"agreed_at" timestamp with time zone NOT NULL,
	"withdrawn_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "location_access_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"driver_id" integer NOT NULL,
	"butler_request_id" integer NOT NULL,
	"reader_user_id" integer,
	"reader_role" varchar(20) NOT NULL,
	"reader_label" varchar(254) NOT NULL,
	"purpose" varchar(200) NOT NULL,
	"first_read_at" timestamp with time zone NOT NULL,
	"last_read_at" timestamp with time zone NOT NULL,
	"reads" integer DEFAULT 1 NOT NULL,
	"noticed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "driver_location_consents" ADD CONSTRAINT "driver_location_consents_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_location_consents" ADD CONSTRAINT "driver_location_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_access_log" ADD CONSTRAINT "location_access_log_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_access_log" ADD CONSTRAINT "location_access_log_reader_user_id_users_id_fk" FOREIGN KEY ("reader_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "driver_location_consents_driver_idx" ON "driver_location_consents" USING btree ("driver_id","kind");--> statement-breakpoint
CREATE INDEX "location_access_log_driver_idx" ON "location_access_log" USING btree ("driver_id","last_read_at");--> statement-breakpoint
CREATE INDEX "location_access_log_session_idx" ON "location_access_log" USING btree ("butler_request_id","reader_role","reader_user_id","last_read_at");--> statement-breakpoint
CREATE INDEX "location_access_log_last_idx" ON "location_access_log" USING btree ("last_read_at");
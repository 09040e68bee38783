CREATE TABLE "driver_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"driver_id" integer NOT NULL,
	"channel" varchar(10) NOT NULL,
	"address" varchar(254) NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "driver_invites_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "trip_positions" (
	"butler_request_id" integer PRIMARY KEY NOT NULL,
	"driver_id" integer NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"accuracy" double precision,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "departed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD COLUMN "arrived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "driver_id" integer;--> statement-breakpoint
ALTER TABLE "driver_invites" ADD CONSTRAINT "driver_invites_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_invites" ADD CONSTRAINT "driver_invites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_positions" ADD CONSTRAINT "trip_positions_butler_request_id_butler_requests_id_fk" FOREIGN KEY ("butler_request_id") REFERENCES "public"."butler_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_positions" ADD CONSTRAINT "trip_positions_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "driver_invites_driver_idx" ON "driver_invites" USING btree ("driver_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_driver_uq" ON "users" USING btree ("driver_id");
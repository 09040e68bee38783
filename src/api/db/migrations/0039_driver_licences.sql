CREATE TABLE "driver_licences" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"role" varchar(10) NOT NULL,
	"holder_name" varchar(80) NOT NULL,
	"birth_date" date NOT NULL,
	"licence_type" varchar(20) NOT NULL,
	"number_masked" varchar(20) NOT NULL,
	"number_sealed" text NOT NULL,
	"number_digest" varchar(64) NOT NULL,
	"status" varchar(20) NOT NULL,
	"first_issued_on" date,
	"expires_on" date,
	"checked_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "driver_licences_user_number_uq" ON "driver_licences" USING btree ("user_id","number_digest");--> statement-breakpoint
CREATE TABLE "licence_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"licence_id" integer NOT NULL REFERENCES "driver_licences"("id"),
	"purpose" varchar(20) NOT NULL,
	"ref_type" varchar(30),
	"ref_id" integer,
	"status" varchar(20) NOT NULL,
	"provider" varchar(20) NOT NULL,
	"reference" varchar(80) NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "licence_checks_licence_idx" ON "licence_checks" USING btree ("licence_id","checked_at");--> statement-breakpoint
CREATE TABLE "request_drivers" (
	"request_id" integer NOT NULL REFERENCES "subscription_requests"("id"),
	"licence_id" integer NOT NULL REFERENCES "driver_licences"("id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "request_drivers_uq" ON "request_drivers" USING btree ("request_id","licence_id");

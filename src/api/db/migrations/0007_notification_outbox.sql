CREATE TABLE "notification_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" varchar(200) NOT NULL,
	"event" varchar(60) NOT NULL,
	"channel" varchar(20) NOT NULL,
	"to" varchar(254) NOT NULL,
	"user_id" integer,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" varchar(20) DEFAULT 'PENDING' NOT NULL,
	"provider" varchar(20),
	"provider_message_id" varchar(200),
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_messages" ADD CONSTRAINT "notification_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_messages_key_uq" ON "notification_messages" USING btree ("key","channel","to");--> statement-breakpoint
CREATE INDEX "notification_messages_to_idx" ON "notification_messages" USING btree ("to","created_at");--> statement-breakpoint
CREATE INDEX "notification_messages_created_idx" ON "notification_messages" USING btree ("created_at");
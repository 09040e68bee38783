CREATE TABLE "brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(80) NOT NULL,
	"slug" varchar(80) NOT NULL,
	"image" text,
	"sort_order" integer DEFAULT 100 NOT NULL,
	CONSTRAINT "brands_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "butler_cars" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_id" integer NOT NULL,
	"sub_model" varchar(120),
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"color" varchar(60),
	"mileage" integer,
	"license_plate" varchar(20),
	"description" text,
	"retail_price" integer,
	"butler_fee" integer NOT NULL,
	"butler_overtime_fee" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "butler_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"butler_car_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"start_location" text NOT NULL,
	"end_location" text NOT NULL,
	"passenger_count" integer DEFAULT 1 NOT NULL,
	"purpose" text,
	"memo" text,
	"description" text,
	"driver_preference" varchar(10),
	"user_coupon_id" integer,
	"point_used" integer DEFAULT 0 NOT NULL,
	"billing_key" varchar(200) NOT NULL,
	"billing_provider" varchar(20) NOT NULL,
	"base_fee" integer NOT NULL,
	"overtime_fee" integer DEFAULT 0 NOT NULL,
	"coupon_discount" integer DEFAULT 0 NOT NULL,
	"final_price" integer NOT NULL,
	"status" varchar(20) DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "butler_requests_billing_key_unique" UNIQUE("billing_key")
);
--> statement-breakpoint
CREATE TABLE "butler_reserved_dates" (
	"id" serial PRIMARY KEY NOT NULL,
	"butler_car_id" integer NOT NULL,
	"date" date NOT NULL,
	"butler_request_id" integer
);
--> statement-breakpoint
CREATE TABLE "butler_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "butler_subscriptions_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "butler_waypoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"butler_request_id" integer NOT NULL,
	"position" integer NOT NULL,
	"address" text NOT NULL,
	"scheduled_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cars" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_id" integer NOT NULL,
	"sub_model" varchar(120),
	"trim" varchar(120),
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"color" varchar(60),
	"mileage" integer,
	"license_plate" varchar(20),
	"description" text,
	"retail_price" integer,
	"is_new" boolean DEFAULT false NOT NULL,
	"is_hot" boolean DEFAULT false NOT NULL,
	"is_subscriptable" boolean DEFAULT true NOT NULL,
	"subscription_available_from" date,
	"release_date" date,
	"subscription_fee_minimum" integer,
	"subscription_fee_1" integer,
	"subscription_fee_3" integer,
	"subscription_fee_6" integer,
	"subscription_fee_12" integer,
	"subscription_fee_24" integer,
	"subscription_fee_36" integer,
	"subscription_fee_48" integer,
	"subscription_fee_60" integer,
	"subscription_fee_72" integer,
	"subscription_fee_84" integer,
	"subscription_fee_96" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalogue_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"session_key" varchar(64) NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_sessions_session_key_unique" UNIQUE("session_key")
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(80) NOT NULL,
	"email" varchar(254) NOT NULL,
	"subject" varchar(200) NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"code" varchar(40) NOT NULL,
	"description" text,
	"service" varchar(20) DEFAULT 'SUBSCRIBE' NOT NULL,
	"discount_type" varchar(20) NOT NULL,
	"discount_rate" integer,
	"discount" integer,
	"valid_from" date,
	"valid_to" date,
	"min_price" integer,
	"max_price" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "faqs" (
	"id" serial PRIMARY KEY NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"category" varchar(40),
	"sort_order" integer DEFAULT 100 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"verification_id" varchar(120) NOT NULL,
	"provider" varchar(20) NOT NULL,
	"status" varchar(20) NOT NULL,
	"name" varchar(80),
	"phone" varchar(20),
	"birth_date" date,
	"ci" text,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_verifications_verification_id_unique" UNIQUE("verification_id")
);
--> statement-breakpoint
CREATE TABLE "models" (
	"id" serial PRIMARY KEY NOT NULL,
	"brand_id" integer NOT NULL,
	"name" varchar(120) NOT NULL,
	"image" text
);
--> statement-breakpoint
CREATE TABLE "point_coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(40) NOT NULL,
	"name" varchar(120) NOT NULL,
	"amount" integer NOT NULL,
	"valid_from" date,
	"valid_to" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_coupons_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "point_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"reason" varchar(40) NOT NULL,
	"description" text,
	"ref_type" varchar(40),
	"ref_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(20) NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"version" varchar(20) NOT NULL,
	"effective_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"id" serial PRIMARY KEY NOT NULL,
	"referrer_id" integer NOT NULL,
	"referee_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referrals_referee_id_unique" UNIQUE("referee_id")
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"family_id" varchar(36) NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "subscription_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"car_id" integer NOT NULL,
	"month" integer NOT NULL,
	"user_coupon_id" integer,
	"point_used" integer DEFAULT 0 NOT NULL,
	"billing_key" varchar(200) NOT NULL,
	"billing_provider" varchar(20) NOT NULL,
	"fee" integer NOT NULL,
	"coupon_discount" integer DEFAULT 0 NOT NULL,
	"final_fee" integer NOT NULL,
	"status" varchar(20) DEFAULT 'PENDING' NOT NULL,
	"start_date" date,
	"end_date" date,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_requests_billing_key_unique" UNIQUE("billing_key")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "user_coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"coupon_id" integer NOT NULL,
	"is_used" boolean DEFAULT false NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(80) NOT NULL,
	"name" varchar(80),
	"email" varchar(254),
	"mobile" varchar(20),
	"password_hash" text,
	"profile_image" text,
	"ci" text,
	"ci_verified" boolean DEFAULT false NOT NULL,
	"referral_code" varchar(16) NOT NULL,
	"marketing_consent" boolean DEFAULT false NOT NULL,
	"social_provider" varchar(20),
	"social_id" varchar(120),
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username"),
	CONSTRAINT "users_referral_code_unique" UNIQUE("referral_code")
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"target" varchar(254) NOT NULL,
	"purpose" varchar(30) NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "butler_cars" ADD CONSTRAINT "butler_cars_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD CONSTRAINT "butler_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD CONSTRAINT "butler_requests_butler_car_id_butler_cars_id_fk" FOREIGN KEY ("butler_car_id") REFERENCES "public"."butler_cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "butler_requests" ADD CONSTRAINT "butler_requests_user_coupon_id_user_coupons_id_fk" FOREIGN KEY ("user_coupon_id") REFERENCES "public"."user_coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "butler_reserved_dates" ADD CONSTRAINT "butler_reserved_dates_butler_car_id_butler_cars_id_fk" FOREIGN KEY ("butler_car_id") REFERENCES "public"."butler_cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "butler_subscriptions" ADD CONSTRAINT "butler_subscriptions_request_id_butler_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."butler_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "butler_subscriptions" ADD CONSTRAINT "butler_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "butler_waypoints" ADD CONSTRAINT "butler_waypoints_butler_request_id_butler_requests_id_fk" FOREIGN KEY ("butler_request_id") REFERENCES "public"."butler_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD CONSTRAINT "chat_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_transactions" ADD CONSTRAINT "point_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referee_id_users_id_fk" FOREIGN KEY ("referee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD CONSTRAINT "subscription_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD CONSTRAINT "subscription_requests_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_requests" ADD CONSTRAINT "subscription_requests_user_coupon_id_user_coupons_id_fk" FOREIGN KEY ("user_coupon_id") REFERENCES "public"."user_coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_request_id_subscription_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."subscription_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_coupons" ADD CONSTRAINT "user_coupons_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_coupons" ADD CONSTRAINT "user_coupons_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "butler_requests_user_idx" ON "butler_requests" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "butler_reserved_car_date_uq" ON "butler_reserved_dates" USING btree ("butler_car_id","date");--> statement-breakpoint
CREATE INDEX "butler_waypoints_request_idx" ON "butler_waypoints" USING btree ("butler_request_id");--> statement-breakpoint
CREATE INDEX "cars_model_idx" ON "cars" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "cars_fee_min_idx" ON "cars" USING btree ("subscription_fee_minimum");--> statement-breakpoint
CREATE INDEX "cars_release_idx" ON "cars" USING btree ("release_date");--> statement-breakpoint
CREATE INDEX "models_brand_idx" ON "models" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "point_tx_user_idx" ON "point_transactions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "point_tx_once_uq" ON "point_transactions" USING btree ("user_id","reason","ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "policy_documents_kind_idx" ON "policy_documents" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "referrals_referrer_idx" ON "referrals" USING btree ("referrer_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "sub_requests_user_idx" ON "subscription_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_coupons_user_coupon_uq" ON "user_coupons" USING btree ("user_id","coupon_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_ci_uq" ON "users" USING btree ("ci");--> statement-breakpoint
CREATE UNIQUE INDEX "users_social_uq" ON "users" USING btree ("social_provider","social_id");--> statement-breakpoint
CREATE INDEX "users_mobile_idx" ON "users" USING btree ("mobile");--> statement-breakpoint
CREATE INDEX "verification_codes_target_idx" ON "verification_codes" USING btree ("target","purpose");
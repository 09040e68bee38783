ALTER TABLE "companies" ADD COLUMN "authority_refusal" varchar(300);--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "authority_refused_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "company_authority_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id"),
	"uploaded_by_user_id" integer NOT NULL REFERENCES "users"("id"),
	"name" varchar(120) NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"size" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"bytes" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "company_authority_documents_sha_uq" ON "company_authority_documents" USING btree ("company_id","sha256");--> statement-breakpoint
CREATE INDEX "company_authority_documents_company_idx" ON "company_authority_documents" USING btree ("company_id");

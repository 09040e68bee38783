CREATE TABLE "photo_variants" (
	"name" varchar(40) PRIMARY KEY NOT NULL,
	"photo_id" varchar(16) NOT NULL,
	"bytes" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" varchar(16) PRIMARY KEY NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"placeholder" varchar(7) NOT NULL,
	"original_ext" varchar(8) NOT NULL,
	"original" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "photo_variants" ADD CONSTRAINT "photo_variants_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photo_variants_photo_idx" ON "photo_variants" USING btree ("photo_id");--> statement-breakpoint
-- Gallery entries: each image address becomes { src, alt, photo } with the alt text the pages showed for it until now.
UPDATE "cars" AS c SET "images" = (
	SELECT jsonb_agg(jsonb_build_object('src', e.src, 'alt', concat_ws(' ', m.name, COALESCE(NULLIF(c.sub_model, ''), NULLIF(c.trim, ''))) || ' 이미지 ' || e.n, 'photo', NULL) ORDER BY e.n)
	FROM jsonb_array_elements_text(c.images) WITH ORDINALITY AS e(src, n)
)
FROM "models" AS m
WHERE m.id = c.model_id AND jsonb_typeof(c.images -> 0) = 'string';--> statement-breakpoint
UPDATE "butler_cars" AS c SET "images" = (
	SELECT jsonb_agg(jsonb_build_object('src', e.src, 'alt', b.name || ' ' || m.name || ' 이미지 ' || e.n, 'photo', NULL) ORDER BY e.n)
	FROM jsonb_array_elements_text(c.images) WITH ORDINALITY AS e(src, n)
)
FROM "models" AS m, "brands" AS b
WHERE m.id = c.model_id AND b.id = m.brand_id AND jsonb_typeof(c.images -> 0) = 'string';

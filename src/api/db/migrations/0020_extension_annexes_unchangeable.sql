-- An extension's annex (부속 계약서), once issued, is never changed or removed (docs/decisions/extension.md): the database refuses it.
CREATE OR REPLACE FUNCTION subscription_extension_annexes_unchangeable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'subscription_extension_annexes rows are unchangeable (%).', TG_OP USING ERRCODE = 'raise_exception';
END;
$$;--> statement-breakpoint
CREATE TRIGGER subscription_extension_annexes_no_update BEFORE UPDATE OR DELETE ON "subscription_extension_annexes" FOR EACH ROW EXECUTE FUNCTION subscription_extension_annexes_unchangeable();

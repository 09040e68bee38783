-- A contract, once issued, is never changed or removed (docs/decisions/contract.md): the database refuses it.
CREATE OR REPLACE FUNCTION subscription_contracts_unchangeable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'subscription_contracts rows are unchangeable (%).', TG_OP USING ERRCODE = 'raise_exception';
END;
$$;--> statement-breakpoint
CREATE TRIGGER subscription_contracts_no_update BEFORE UPDATE OR DELETE ON "subscription_contracts" FOR EACH ROW EXECUTE FUNCTION subscription_contracts_unchangeable();

-- Tell every process when a workspace's budgets change (delivered at commit): each keeps which blocking budgets a
-- workspace has, so work under none costs no read (apps/server/src/budgets/blocking-cache.ts).
CREATE FUNCTION "notify_budget_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('budgets', OLD."workspaceId"); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('budgets', NEW."workspaceId"); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "budgets_notify" AFTER INSERT OR UPDATE OR DELETE ON "budgets"
  FOR EACH ROW EXECUTE FUNCTION "notify_budget_change"();

-- Tell every process when a project's default environment changes or the project goes (delivered at commit): each
-- keeps the default environment of the projects it creates sessions in (apps/server/src/sessions/resolve-execution.ts).
CREATE FUNCTION "notify_project_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('projects', OLD."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "projects_notify" AFTER UPDATE OF "defaultEnvironmentId" OR DELETE ON "projects"
  FOR EACH ROW EXECUTE FUNCTION "notify_project_change"();
